import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { relayRuntime } from '../../relay/runtime.js';
import { RelayHotLane } from './hot-lane.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends one POST with a Content-Length (the hot lane takes it) or chunked (no length: Fastify takes it).
 * Both paths must answer alike.
 */
function post(url: string, body: string, headers: Record<string, string>, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => (text += part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    sent.on('error', reject);
    if (chunked) {
      sent.setHeader('transfer-encoding', 'chunked');
      sent.write(body.slice(0, 5));
      sent.end(body.slice(5));
    } else {
      sent.setHeader('content-length', Buffer.byteLength(body));
      sent.end(body);
    }
  });
}

/** The answer without what differs by design between two calls (ids, timestamps). */
const comparable = (answer: Answer) => ({
  status: answer.status,
  contentType: answer.headers['content-type'],
  cors: [answer.headers['access-control-allow-origin'], answer.headers['access-control-allow-credentials']],
  body: answer.body.replace(/request id: \d+/g, 'request id: …').replace(/"created":\d+/g, '"created":…'),
});

/** A test server with one channel on a mock upstream and one user to hold tokens. */
async function startStack(username: string) {
  const server = await startTestServer();
  const upstream = await MockOpenAIUpstream.start();
  await createChannel(server, { base_url: upstream.url, models: 'gpt-4o-mini' });
  const userId = await createUser(server, { username, quota: 100_000_000 });
  return { server, upstream, userId };
}

describe('the relay hot lane answers as the Fastify path does', () => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let key: string;
  let subnetKey: string;
  beforeAll(async () => {
    let userId: number;
    ({ server, upstream, userId } = await startStack('lanes'));
    key = (await createToken(server, userId, { models: 'gpt-4o-mini' })).key;
    subnetKey = (await createToken(server, userId, { subnet: '10.0.0.0/8', name: 'office only' })).key;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const chat = (extra: object = {}) =>
    JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...extra });

  const cases: [string, number, () => [string, Record<string, string>]][] = [
    ['an answer', 200, () => [chat(), { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' }]],
    [
      'a stream',
      200,
      () => [chat({ stream: true }), { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' }],
    ],
    ['no token', 401, () => [chat(), { 'content-type': 'application/json' }]],
    ['an unknown token', 401, () => [chat(), { authorization: 'Bearer sk-nope', 'content-type': 'application/json' }]],
    [
      'malformed JSON',
      400,
      () => ['{"model":', { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' }],
    ],
    ['a wrong content type', 400, () => [chat(), { authorization: `Bearer sk-${key}`, 'content-type': 'text/plain' }]],
    [
      'a model the token may not use',
      403,
      () => [
        JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      ],
    ],
    [
      // Loopback is a trusted proxy by default, so both paths take the client from X-Forwarded-For.
      'a subnet-bound token from inside its subnet, behind a trusted proxy',
      200,
      () => [
        chat(),
        { authorization: `Bearer sk-${subnetKey}`, 'content-type': 'application/json', 'x-forwarded-for': '10.1.2.3' },
      ],
    ],
    [
      'a subnet-bound token from outside its subnet',
      403,
      () => [
        chat(),
        {
          authorization: `Bearer sk-${subnetKey}`,
          'content-type': 'application/json',
          'x-forwarded-for': '192.168.1.9',
        },
      ],
    ],
    [
      'an English client and a browser origin',
      401,
      () => [chat(), { 'accept-language': 'en', origin: 'https://app.example', 'content-type': 'application/json' }],
    ],
  ];

  test.each(cases)('%s: %i', async (_name, status, make) => {
    const [body, headers] = make();
    const url = `${server.url}/v1/chat/completions`;
    const hot = await post(url, body, headers, false);
    const fastify = await post(url, body, headers, true);
    expect(hot.status).toBe(status);
    expect(comparable(hot)).toEqual(comparable(fastify));
    for (const answer of [hot, fastify]) expect(answer.headers['x-oneapi-request-id']).toMatch(/^\d{25}$/);
  });

  test('an upstream failure is the same OpenAI error either way', async () => {
    upstream.set({ failure: { status: 400, error: { message: 'bad thing', type: 'invalid_request_error' } } });
    const headers = { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' };
    const url = `${server.url}/v1/chat/completions`;
    const hot = await post(url, chat(), headers, false);
    const fastify = await post(url, chat(), headers, true);
    upstream.reset();
    expect(hot.status).toBe(400);
    expect(comparable(hot)).toEqual(comparable(fastify));
  });
});

describe('the relay hot lane on its own', () => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let plain: Server;
  let url: string;
  let key: string;
  beforeAll(async () => {
    let userId: number;
    ({ server, upstream, userId } = await startStack('lane'));
    key = (await createToken(server, userId)).key;
    // A bare Node server: whatever the lane does not take is answered 418 here, so the lane is seen to act.
    const lane = new RelayHotLane(
      server.context,
      relayRuntime(server.context),
      (request) => request.socket.remoteAddress ?? '',
    );
    plain = createServer((request, response) => {
      if (!lane.take(request, response)) response.writeHead(418).end('not taken');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const address = plain.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    plain?.closeAllConnections();
    await new Promise((resolve) => plain?.close(resolve));
    await server?.close();
    await upstream?.close();
  });

  const chat = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  const headers = () => ({ authorization: `Bearer sk-${key}`, 'content-type': 'application/json' });

  test('serves a plain chat call by itself: answer, usage billed, request id', async () => {
    const answer = await post(`${url}/v1/chat/completions`, chat, headers(), false);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).choices[0].message.content).toBe('Hello from the mock upstream');
    expect(answer.headers['x-oneapi-request-id']).toMatch(/^\d{25}$/);
    expect(upstream.lastRequest!.headers.authorization).toMatch(/^Bearer /);
  });

  test.each([
    ['a query string', '/v1/chat/completions?x=1', {}, false],
    ['a chunked body', '/v1/chat/completions', {}, true],
    ['a gzip body', '/v1/chat/completions', { 'content-encoding': 'gzip' }, false],
    ['another route', '/v1/images/generations', {}, false],
  ] as const)('leaves %s to Fastify', async (_name, path, extra, chunked) => {
    const answer = await post(`${url}${path}`, chat, { ...headers(), ...extra }, chunked);
    expect(answer.status).toBe(418);
  });

  test('leaves everything to Fastify once closing', async () => {
    const lane = new RelayHotLane(
      server.context,
      relayRuntime(server.context),
      (request) => request.socket.remoteAddress ?? '',
    );
    lane.close();
    const closed = createServer((request, response) => {
      if (!lane.take(request, response)) response.writeHead(418).end();
    });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const answer = await post(`http://127.0.0.1:${port}/v1/chat/completions`, chat, headers(), false);
    closed.closeAllConnections();
    await new Promise((resolve) => closed.close(resolve));
    expect(answer.status).toBe(418);
  });
});
