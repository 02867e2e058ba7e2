import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockOpenAIUpstream } from '../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser } from '../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { loadConfig } from '../config/env.js';

interface Outcome {
  /** Milliseconds from the first byte sent to the socket's close. */
  closedAfterMs: number;
  /** What the server wrote before closing. */
  received: string;
}

/** Opens a raw connection, writes `text`, then stalls until the server closes it (or `giveUpMs` passes). */
function sendAndStall(url: string, text: string, giveUpMs: number): Promise<Outcome> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    let received = '';
    const started = Date.now();
    const socket: Socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the stalled connection open for ${giveUpMs} ms`));
    }, giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (part: string) => (received += part));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ closedAfterMs: Date.now() - started, received });
    });
  });
}

describe('HTTP timeouts against slow clients (slowloris)', () => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let key: string;

  beforeAll(async () => {
    upstream = await MockOpenAIUpstream.start();
    server = await startTestServer({
      env: { HTTP_HEADERS_TIMEOUT: '1', HTTP_REQUEST_TIMEOUT: '1', HTTP_KEEPALIVE_TIMEOUT: '1' },
    });
    await createChannel(server, { base_url: upstream.url });
    const userId = await createUser(server, { username: 'slow-client', quota: 10_000_000 });
    ({ key } = await createToken(server, userId));
  });

  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('a client that sends half its headers and stalls is answered 408 and disconnected', async () => {
    const outcome = await sendAndStall(server.url, 'GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow', 5000);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(outcome.closedAfterMs).toBeLessThan(3000);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408/);
  });

  test('a connection that never sends anything is closed too', async () => {
    const outcome = await sendAndStall(server.url, '', 5000);
    expect(outcome.closedAfterMs).toBeLessThan(3000);
  });

  test.each([
    ['a Content-Length body', 'Content-Length: 400\r\n\r\n{"model":"gpt-4o-mini",'],
    ['a chunked body', 'Transfer-Encoding: chunked\r\n\r\n17\r\n{"model":"gpt-4o-mini",\r\n'],
  ])('%s that stops midway is cut after the request timeout', async (_body, rest) => {
    const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk-${key}\r\nContent-Type: application/json\r\n`;
    const outcome = await sendAndStall(server.url, head + rest, 5000);
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(outcome.closedAfterMs).toBeLessThan(3000);
    expect(upstream.requests).toHaveLength(0);
  });

  test.each([
    ['a Content-Length body', false],
    ['a chunked body', true],
  ])(
    'a 5-second stream survives a 1-second request timeout, asked with %s',
    async (_body, chunked) => {
      upstream.set({ chunks: 10, chunkDelayMs: 500 });
      const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const started = Date.now();
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
        // A ReadableStream body goes chunked.
        body: chunked ? new Blob([body]).stream() : body,
        ...(chunked ? { duplex: 'half' } : {}),
      } as RequestInit);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
      expect(text.match(/"content":/g)?.length).toBeGreaterThanOrEqual(10);
      expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
      upstream.reset();
    },
    15_000,
  );

  test('the timeouts are read from the environment with their defaults', () => {
    const defaults = loadConfig({});
    expect([defaults.HTTP_HEADERS_TIMEOUT, defaults.HTTP_REQUEST_TIMEOUT, defaults.HTTP_KEEPALIVE_TIMEOUT]).toEqual([
      15, 300, 65,
    ]);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT: '30', HTTP_REQUEST_TIMEOUT: '10' })).toThrow(
      /HTTP_REQUEST_TIMEOUT/,
    );
    expect(() => loadConfig({ HTTP_KEEPALIVE_TIMEOUT: 'soon' })).toThrow(/HTTP_KEEPALIVE_TIMEOUT/);
    expect(server.app.server.headersTimeout).toBe(1000);
    expect(server.app.server.requestTimeout).toBe(1000);
    expect(server.app.server.keepAliveTimeout).toBe(1000);
  });
});
