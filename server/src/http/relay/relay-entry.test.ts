import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { jsonLimitBytes } from './relay.routes.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request with a Content-Length, or chunked in two pieces (no length) when `chunked`. */
function send(
  url: string,
  body: Buffer | string,
  headers: Record<string, string>,
  options: { chunked?: boolean; method?: string } = {},
): Promise<Answer> {
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: options.method ?? 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => (text += part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    sent.on('error', reject);
    if (options.chunked) {
      sent.setHeader('transfer-encoding', 'chunked');
      sent.write(bytes.subarray(0, 5));
      sent.end(bytes.subarray(5));
    } else {
      sent.setHeader('content-length', bytes.length);
      sent.end(bytes);
    }
  });
}

const busiest = [
  ['/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }, 'choices'],
  ['/v1/completions', { model: 'gpt-4o-mini', prompt: 'hi' }, 'choices'],
  ['/v1/embeddings', { model: 'gpt-4o-mini', input: 'hi' }, 'data'],
] as const;

describe('the relay entry', () => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let key: string;
  let subnetKey: string;
  let userId: number;
  beforeAll(async () => {
    server = await startTestServer();
    upstream = await MockOpenAIUpstream.start();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-4o-mini' });
    userId = await createUser(server, { username: 'entry', quota: 100_000_000 });
    key = (await createToken(server, userId, { models: 'gpt-4o-mini' })).key;
    subnetKey = (await createToken(server, userId, { subnet: '10.0.0.0/8', name: 'office only' })).key;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer sk-${key}`,
    'content-type': 'application/json',
    ...extra,
  });
  const usedQuota = async () =>
    (
      await server.context.database.db
        .selectFrom('users')
        .select('used_quota')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).used_quota;

  test.each(
    busiest.flatMap(([path, body, field]) =>
      (
        [
          ['a Content-Length body', {}, false],
          ['a chunked body', {}, true],
          ['a gzip body', { 'content-encoding': 'gzip' }, false],
          ['a chunked gzip body', { 'content-encoding': 'gzip' }, true],
        ] as const
      ).map(([name, extra, chunked]) => [path, name, body, field, extra, chunked] as const),
    ),
  )('%s takes %s: relayed, billed, with a request id', async (path, _name, body, field, extra, chunked) => {
    const before = await usedQuota();
    const json = JSON.stringify(body);
    const bytes = 'content-encoding' in extra ? gzipSync(json) : json;
    const answer = await send(`${server.url}${path}`, bytes, headers(extra), { chunked });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)[field]).toHaveLength(1);
    expect(answer.headers['x-oneapi-request-id']).toMatch(/^\d{25}$/);
    expect(upstream.lastRequest!.json).toMatchObject(body);
    await settled(server);
    expect(await usedQuota()).toBeGreaterThan(before);
  });

  test('a query string or a route beyond the busiest answers the same way', async () => {
    const json = JSON.stringify(busiest[0][1]);
    const queried = await send(
      `${server.url}/v1/chat/completions?x=1`,
      gzipSync(json),
      headers({ 'content-encoding': 'gzip' }),
      {
        chunked: true,
      },
    );
    expect(queried.status).toBe(200);
    expect(queried.headers['x-oneapi-request-id']).toMatch(/^\d{25}$/);
    expect(upstream.lastRequest!.url).toContain('?x=1');
    const moderated = await send(`${server.url}/v1/moderations`, JSON.stringify({ input: 'hi' }), headers());
    expect(moderated.headers['x-oneapi-request-id']).toMatch(/^\d{25}$/);
  });

  test.each([
    ['with a Content-Length', false],
    ['chunked', true],
  ])('a body over the limit %s is refused 413 before the upstream is called', async (_name, chunked) => {
    upstream.reset();
    const huge = JSON.stringify({ model: 'gpt-4o-mini', prompt: 'x'.repeat(jsonLimitBytes) });
    const answer = await send(`${server.url}/v1/completions`, huge, headers(), { chunked });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe('request_too_large');
    expect(upstream.requests).toHaveLength(0);
  });

  test('a gzip body counts inflated: a small bomb is refused 413, a broken one 400', async () => {
    upstream.reset();
    const bomb = gzipSync(JSON.stringify({ model: 'gpt-4o-mini', prompt: 'x'.repeat(jsonLimitBytes) }));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const inflated = await send(`${server.url}/v1/completions`, bomb, headers({ 'content-encoding': 'gzip' }));
    expect(inflated.status).toBe(413);
    const broken = await send(
      `${server.url}/v1/chat/completions`,
      'not gzip at all',
      headers({ 'content-encoding': 'gzip' }),
      { chunked: true },
    );
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body).error.message).toContain('gzip');
    expect(upstream.requests).toHaveLength(0);
  });

  test.each([
    ['no token', 401, () => ({})],
    [
      'a subnet-bound token from inside its subnet, behind a trusted proxy',
      200,
      () => ({ authorization: `Bearer sk-${subnetKey}`, 'x-forwarded-for': '10.1.2.3' }),
    ],
    [
      'a subnet-bound token from outside its subnet',
      403,
      () => ({ authorization: `Bearer sk-${subnetKey}`, 'x-forwarded-for': '192.168.1.9' }),
    ],
  ] as const)('%s: %i', async (_name, status, extra) => {
    // Loopback is a trusted proxy by default, so the client is taken from X-Forwarded-For.
    const answer = await send(`${server.url}/v1/chat/completions`, JSON.stringify(busiest[0][1]), {
      'content-type': 'application/json',
      ...extra(),
    });
    expect(answer.status).toBe(status);
  });

  test('errors and answers carry CORS for a browser origin, in the client language', async () => {
    const answer = await send(`${server.url}/v1/chat/completions`, JSON.stringify(busiest[0][1]), {
      'content-type': 'application/json',
      'accept-language': 'en',
      origin: 'https://app.example',
    });
    expect(answer.status).toBe(401);
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
    expect(JSON.parse(answer.body).error.message).toMatch(/^No API key provided.* \(request id: \d{25}\)$/);
    const preflight = await send(
      `${server.url}/v1/chat/completions`,
      '',
      {
        origin: 'https://app.example',
        'access-control-request-headers': 'authorization, content-type',
      },
      { method: 'OPTIONS' },
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(preflight.headers['x-oneapi-request-id']).toMatch(/^\d{25}$/);
  });
});
