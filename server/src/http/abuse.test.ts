import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../test/engines.js';
import { MockOpenAIUpstream } from '../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser } from '../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { createTestUser, type TestUser } from '../../test/test-users.js';

const engines = await availableEngines();

interface Answer {
  status: number;
  text: string;
}

/** One raw HTTP request: the path, headers and bytes go out exactly as given (no URL normalisation). */
function rawRequest(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<Answer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: options.method ?? 'GET',
        path: options.path,
        headers:
          options.body === undefined
            ? options.headers
            : { 'content-length': Buffer.byteLength(options.body), ...options.headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (part: string) => (text += part));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** Writes raw bytes on a new connection and returns all the server wrote before closing it. */
function rawExchange(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    socket.setEncoding('utf8');
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('data', (part: string) => (received += part));
    // The server may close before it has read everything we wrote (a reset): what it answered is what counts.
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
}

const randomText = (length: number) =>
  randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);

/** Signs of a leaked internal: stack frames, source paths, driver errors. */
const internals = /\n\s+at |node_modules|\.ts:\d+|SQLITE_|ER_[A-Z_]+|syntax error at|TypeError|RangeError/;

describe.each(engines)('hostile input on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let root: TestUser;
  let member: TestUser;
  let relayKey: string;
  const channelKey = `sk-abuse-channel-${randomText(24)}`;
  const leaks: string[] = [];

  const snapshot = async () => {
    const db = server.context.database.db;
    return {
      users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
      tokens: await db.selectFrom('tokens').selectAll().orderBy('id').execute(),
      channels: await db.selectFrom('channels').selectAll().orderBy('id').execute(),
      abilities: await db.selectFrom('abilities').selectAll().orderBy('channel_id').orderBy('model').execute(),
      options: await db.selectFrom('options').selectAll().orderBy('key').execute(),
      redemptions: await db.selectFrom('redemptions').selectAll().orderBy('id').execute(),
    };
  };
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    upstream = await MockOpenAIUpstream.start();
    server = await startTestServer({ engine });
    root = await createTestUser(server, { role: 100, quota: 1_000_000, username: 'abuse-root' });
    member = await createTestUser(server, { role: 1, quota: 1_000_000, username: 'abuse-member' });
    await createChannel(server, { base_url: upstream.url, key: channelKey });
    const relayUser = await createUser(server, { username: 'abuse-relay', quota: 10_000_000 });
    ({ key: relayKey } = await createToken(server, relayUser, { name: 'abuse token' }));
    await root.client.post('/api/redemption/', { name: 'abuse code', quota: 100, count: 1 });
    leaks.push(channelKey, relayKey, root.accessToken, member.accessToken);
    before = await snapshot();
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  /** Every answer: never 5xx, never a stack, driver message or secret. */
  const expectClean = (answer: Answer, label: string) => {
    expect(answer.status, `${label}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
    expect(answer.text, label).not.toMatch(internals);
    for (const secret of leaks) expect(answer.text, label).not.toContain(secret);
  };
  /** A /v1 refusal: a 4xx with OpenAI's error object. */
  const expectRelayRefusal = (answer: Answer, label: string) => {
    expectClean(answer, label);
    expect(answer.status, `${label}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    const body = JSON.parse(answer.text) as { error?: { message?: unknown; type?: unknown } };
    expect(typeof body.error?.message, label).toBe('string');
    expect(typeof body.error?.type, label).toBe('string');
  };
  /** An /api refusal: `{ success: false, message }`, with 200 (one-api's habit) or a 4xx. */
  const expectApiRefusal = (answer: Answer, label: string) => {
    expectClean(answer, label);
    const body = JSON.parse(answer.text) as { success?: unknown; message?: unknown };
    expect(body.success, `${label}: ${answer.text.slice(0, 300)}`).toBe(false);
    expect(typeof body.message, label).toBe('string');
  };

  const relay = (authorization: string | undefined, body: Buffer | string, contentType = 'application/json') =>
    rawRequest(server.url, {
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': contentType, ...(authorization === undefined ? {} : { authorization }) },
      body,
    });
  const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  const api = (method: string, path: string, accessToken: string | undefined, body?: unknown, contentType?: string) =>
    rawRequest(server.url, {
      method,
      path,
      headers: {
        ...(accessToken === undefined ? {} : { authorization: accessToken }),
        ...(body === undefined ? {} : { 'content-type': contentType ?? 'application/json' }),
      },
      body:
        body === undefined
          ? undefined
          : typeof body === 'string' || Buffer.isBuffer(body)
            ? body
            : JSON.stringify(body),
    });

  test('random, oversized and malformed relay keys are refused 401 without a cache entry for the oversized', async () => {
    const missesBefore = server.context.caches.tokens.size.misses;
    for (const length of [1, 8, 47, 48, 49, 64, 500, 4096, 12_000]) {
      const key = randomText(length);
      for (const authorization of [
        `Bearer sk-${key}`,
        `Bearer ${key}`,
        `Bearer sk-${key}-1`,
        `Bearer sk-${key}-../../x`,
      ])
        expectRelayRefusal(await relay(authorization, chatBody), `key of ${length}`);
    }
    for (const authorization of [
      undefined,
      '',
      'Bearer',
      'Bearer sk-',
      'Basic YWRtaW46YWRtaW4=',
      'Bearer sk-\u00e9\u00e9',
    ])
      expectRelayRefusal(await relay(authorization, chatBody), `authorization ${authorization}`);
    // Only keys that could exist (48 characters at most) were looked up and remembered as misses: one for each
    // of the four lengths up to 48 (with or without `sk-` and a suffix, it is the same key), and `Bearer`,
    // `Basic …` and `éé`, which one-api's parsing also takes for keys.
    expect(server.context.caches.tokens.size.misses - missesBefore).toBe(7);
    expect(upstream.requests).toHaveLength(0);
  });

  test('random and oversized access tokens are refused on /api, oversized ones without a lookup', async () => {
    const missesBefore = server.context.caches.accessTokens.size.misses;
    for (const length of [1, 31, 32, 33, 200, 8000]) {
      for (const path of ['/api/user/self', '/api/token/', '/api/channel/', '/api/option/'])
        expectApiRefusal(await api('GET', path, randomText(length)), `access token of ${length} on ${path}`);
    }
    // Three lengths up to 32 on four paths were looked up (one-character tokens may repeat); the longer ones never were.
    const lookedUp = server.context.caches.accessTokens.size.misses - missesBefore;
    expect(lookedUp).toBeGreaterThanOrEqual(9);
    expect(lookedUp).toBeLessThanOrEqual(12);
  });

  test('huge headers are refused by the HTTP server (431), the process answers on', async () => {
    const huge = 'x'.repeat(64 * 1024);
    for (const header of [`Authorization: Bearer sk-${huge}`, `X-Padding: ${huge}`]) {
      const answer = await rawExchange(server.url, `GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    }
    expect((await rawRequest(server.url, { path: '/api/status' })).status).toBe(200);
  });

  test('malformed bodies on /v1 are 4xx OpenAI errors', async () => {
    const authorization = `Bearer sk-${relayKey}`;
    const cases: [string, Buffer | string, string?][] = [
      ['not JSON', '{"model": "gpt-4o-mini", "messages": [', undefined],
      ['empty', '', undefined],
      ['a JSON string', '"hello"', undefined],
      ['a JSON array', '[1,2,3]', undefined],
      ['null', 'null', undefined],
      ['messages not an array', '{"model":"gpt-4o-mini","messages":"hi"}', undefined],
      [
        'invalid UTF-8',
        Buffer.concat([Buffer.from('{"model":"gpt-4o-mini\xff'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
        undefined,
      ],
      ['deep objects', `{"model":"gpt-4o-mini","messages":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`, undefined],
      ['XML', '<xml><model>gpt-4o-mini</model></xml>', 'application/xml'],
      ['form', 'model=gpt-4o-mini', 'application/x-www-form-urlencoded'],
      ['text', chatBody, 'text/plain'],
      ['huge max_tokens', JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 1e308, messages: [] }), undefined],
      ['NaN-like n', '{"model":"gpt-4o-mini","n":NaN,"messages":[]}', undefined],
    ];
    for (const [label, body, contentType] of cases)
      expectRelayRefusal(await relay(authorization, body, contentType), label);
    expect(upstream.requests).toHaveLength(0);
  });

  test('malformed bodies and wrong content types on /api are refused', async () => {
    const cases: [string, string, unknown, string?][] = [
      ['POST', '/api/user/login', '{"username": "root", "password": ', undefined],
      ['POST', '/api/user/login', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), undefined],
      ['POST', '/api/user/login', 'username=root&password=123456', 'application/x-www-form-urlencoded'],
      ['POST', '/api/user/login', '<login/>', 'application/xml'],
      ['POST', '/api/user/login', `${'['.repeat(50_000)}${']'.repeat(50_000)}`, undefined],
      ['POST', '/api/user/login', { username: { $ne: null }, password: { $ne: null } }, undefined],
      ['POST', '/api/user/login', { username: "root' --", password: "' OR '1'='1" }, undefined],
      ['POST', '/api/user/register', { username: 'x'.repeat(100_000), password: 'y'.repeat(100_000) }, undefined],
    ];
    for (const [method, path, body, contentType] of cases)
      expectApiRefusal(await api(method, path, undefined, body, contentType), `${method} ${path}`);
  });

  test('negative, NaN, float, hex and huge ids are refused and delete nothing', async () => {
    const ids = ['-1', '0', 'NaN', '1.5', '0x1', '1e3', '99999999999999999999', "1'%20OR%20'1'='1", '%00', 'Infinity'];
    for (const id of ids) {
      for (const [method, path] of [
        ['GET', `/api/user/${id}`],
        ['DELETE', `/api/user/${id}`],
        ['GET', `/api/token/${id}`],
        ['DELETE', `/api/token/${id}`],
        ['GET', `/api/channel/${id}`],
        ['DELETE', `/api/channel/${id}`],
        ['GET', `/api/redemption/${id}`],
        ['DELETE', `/api/redemption/${id}`],
      ] as const) {
        const answer = await api(method, path, root.accessToken);
        if (answer.status === 404) expectClean(answer, `${method} ${path}`);
        else expectApiRefusal(answer, `${method} ${path}`);
      }
    }
  });

  test('huge, negative and non-numeric quota fields are refused', async () => {
    const quotas: unknown[] = [1e308, -1, 2 ** 53 + 2, '1e999', 'NaN', 1.5, null, { $gt: 0 }, [1]];
    for (const quota of quotas) {
      const label = `quota ${JSON.stringify(quota)}`;
      expectApiRefusal(await api('POST', '/api/redemption/', root.accessToken, { name: 'x', quota, count: 1 }), label);
      expectApiRefusal(
        await api('POST', '/api/token/', member.accessToken, { name: 'x', remain_quota: quota, expired_time: -1 }),
        `token ${label}`,
      );
      expectApiRefusal(
        await api('PUT', '/api/user/', root.accessToken, { id: member.id, username: member.username, quota }),
        `user ${label}`,
      );
      expectApiRefusal(
        await api('POST', '/api/redemption/', root.accessToken, { name: 'x', quota: 1, count: quota }),
        `count ${label}`,
      );
    }
  });

  test('SQL-ish search strings find nothing and change nothing', async () => {
    const keywords = [
      "' OR '1'='1",
      "'; DROP TABLE users; --",
      '%',
      '_',
      '\\',
      '") OR 1=1 --',
      "abuse' UNION SELECT * FROM users --",
    ];
    for (const keyword of keywords) {
      const query = encodeURIComponent(keyword);
      for (const path of [
        `/api/user/search?keyword=${query}`,
        `/api/token/search?keyword=${query}`,
        `/api/channel/search?keyword=${query}`,
        `/api/redemption/search?keyword=${query}`,
        `/api/log/?username=${query}&model_name=${query}&token_name=${query}`,
        `/api/token/?order=${query}`,
        `/api/user/?order=${query}`,
      ]) {
        const answer = await api('GET', path, root.accessToken);
        expectClean(answer, path);
        const body = JSON.parse(answer.text) as { success: boolean; data?: unknown };
        if (!body.success) continue;
        // `%` and `_` are LIKE wildcards only if the query forgets to escape them: no row names contain them.
        const rows = Array.isArray(body.data)
          ? body.data
          : ((body.data as { items?: unknown[] } | undefined)?.items ?? []);
        if (path.includes('search')) expect(rows, path).toEqual([]);
      }
    }
  });

  test('path traversal in static paths serves nothing outside the console', async () => {
    for (const path of [
      '/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2f..%2fetc%2fpasswd',
      '/assets/../../package.json',
      '/assets/..%5c..%5cpackage.json',
      '/%00',
      '/api/../../etc/passwd',
    ]) {
      const answer = await rawRequest(server.url, { path });
      expectClean(answer, path);
      expect(answer.text, path).not.toMatch(/root:x:0:0|"devDependencies"/);
    }
  });

  test('after all of it, users, tokens, channels, abilities, options and redemptions are unchanged', async () => {
    const after = await snapshot();
    for (const table of Object.keys(before) as (keyof typeof before)[])
      expect(after[table], table).toEqual(before[table]);
    // And the node still serves: a real call relays.
    const answer = await relay(`Bearer sk-${relayKey}`, chatBody);
    expect(answer.status).toBe(200);
    // A deeply nested content array is the upstream's to judge (it is billed like any call, hence after the
    // snapshot): the gateway passes it on without overflowing its stack.
    const depth = 20_000;
    const deep = await relay(
      `Bearer sk-${relayKey}`,
      `{"model":"gpt-4o-mini","messages":[{"role":"user","content":${'['.repeat(depth)}${']'.repeat(depth)}}]}`,
    );
    expectClean(deep, 'deep nesting');
    expect([200, 400]).toContain(deep.status);
  });
});
