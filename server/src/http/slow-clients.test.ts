import { connect, type Socket } from 'node:net';
import { describe, expect, onTestFinished, test } from 'vitest';
import { startedForSuite } from '../../test/suite-lifecycle.js';
import { startTestServer } from '../../test/test-server.js';
import { loadConfig } from '../config/env.js';

/** A raw connection to the server, with everything it received and whether the server closed it. */
function open(url: string) {
  const socket: Socket = connect(Number(new URL(url).port), '127.0.0.1');
  const state = { received: '', closed: false };
  socket.setEncoding('utf8');
  socket.on('data', (part: string) => (state.received += part));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      state.closed = true;
      resolve();
    }),
  );
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, state, closed, connected };
}

const loginHead = (length: number) =>
  `POST /api/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept-Language: en\r\nContent-Length: ${length}\r\n\r\n`;

/** The JSON body of a raw HTTP answer. */
const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe('issue 32 point 5: an /api body that trickles in is cut with a 408 (HTTP_API_BODY_TIMEOUT)', () => {
  // Node's own request timeout is far off: the /api limit (1 s here) is what cuts.
  const server = startedForSuite(() =>
    startTestServer({ env: { HTTP_API_BODY_TIMEOUT: '1', HTTP_REQUEST_TIMEOUT: '120', HTTP_HEADERS_TIMEOUT: '60' } }),
  );

  test('a body that stops midway is answered 408 { success: false, message } and the connection closed', async () => {
    const client = open(server.url);
    client.socket.write(`${loginHead(200)}{"username":"root",`);
    await client.closed;
    expect(client.state.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(client.state.received.toLowerCase()).toContain('connection: close');
    const body = bodyOf(client.state.received);
    expect(body.success).toBe(false);
    expect(String(body.message)).toMatch(/did not arrive within 1 seconds/);
  });

  test('a chunked body that stops midway is cut the same way', async () => {
    const client = open(server.url);
    client.socket.write(
      'POST /api/user/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"us\r\n',
    );
    await client.closed;
    expect(client.state.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(client.state.received).success).toBe(false);
  });

  test('a body sent in pieces that ends in time is answered as usual, on a connection that stays open', async () => {
    const body = JSON.stringify({ username: 'nobody-here', password: 'wrong password' });
    const client = open(server.url);
    await client.connected;
    client.socket.write(loginHead(Buffer.byteLength(body)) + body.slice(0, 10));
    client.socket.write(body.slice(10));
    const answered = new Promise<void>((resolve) => {
      const check = () => (/\r\n\r\n\{.*\}$/s.test(client.state.received) ? resolve() : setTimeout(check, 20));
      check();
    });
    await answered;
    expect(client.state.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(bodyOf(client.state.received).success).toBe(false);
    expect(client.state.closed).toBe(false);
    client.socket.destroy();
  });

  test('the setting is read from the environment: 30 s by default, 0 for none, a number of seconds', () => {
    expect(loadConfig({}).HTTP_API_BODY_TIMEOUT).toBe(30);
    expect(loadConfig({ HTTP_API_BODY_TIMEOUT: '0' }).HTTP_API_BODY_TIMEOUT).toBe(0);
    expect(() => loadConfig({ HTTP_API_BODY_TIMEOUT: 'soon' })).toThrow(/HTTP_API_BODY_TIMEOUT/);
    expect(() => loadConfig({ HTTP_API_BODY_TIMEOUT: '-1' })).toThrow(/HTTP_API_BODY_TIMEOUT/);
  });
});

describe('issue 32 point 5: open connections per client address (HTTP_MAX_CONNECTIONS_PER_IP)', () => {
  // Loopback is counted like any address unless it is a trusted proxy (the default TRUSTED_PROXIES is loopback).
  const server = startedForSuite(() =>
    startTestServer({ env: { HTTP_MAX_CONNECTIONS_PER_IP: '3', TRUSTED_PROXIES: '10.0.0.0/8' } }),
  );

  const statusRequest = 'GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

  test('a fourth connection from one address is answered 429 in both dialects and closed; once one closes, a new one is served', async () => {
    const held = [open(server.url), open(server.url), open(server.url)];
    onTestFinished(() => held.forEach((client) => client.socket.destroy()));
    await Promise.all(held.map((client) => client.connected));
    const fourth = open(server.url);
    fourth.socket.write(statusRequest);
    await fourth.closed;
    expect(fourth.state.received).toMatch(/^HTTP\/1\.1 429 /);
    const refusal = bodyOf(fourth.state.received);
    expect(refusal).toMatchObject({ success: false, error: { type: 'too_many_connections' } });

    // The held connections are served as usual.
    held[0]!.socket.write(statusRequest);
    await new Promise<void>((resolve) => {
      const check = () => (/"success":true/.test(held[0]!.state.received) ? resolve() : setTimeout(check, 20));
      check();
    });
    expect(held[0]!.state.received).toMatch(/^HTTP\/1\.1 200 /);

    held[1]!.socket.destroy();
    await held[1]!.closed;
    // The server counts the close when its side sees it: a new connection is served once it has.
    let answer = '';
    for (let attempt = 0; attempt < 50 && !answer.startsWith('HTTP/1.1 200 '); attempt++) {
      const next = open(server.url);
      next.socket.write(statusRequest.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
      await next.closed;
      answer = next.state.received;
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  test("a trusted proxy's connections are not counted: they carry many clients", async () => {
    const behindProxy = await startTestServer({ env: { HTTP_MAX_CONNECTIONS_PER_IP: '1' } });
    try {
      const clients = [open(behindProxy.url), open(behindProxy.url), open(behindProxy.url)];
      for (const client of clients)
        client.socket.write(statusRequest.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
      await Promise.all(clients.map((client) => client.closed));
      for (const client of clients) expect(client.state.received).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await behindProxy.close();
    }
  });

  test('the setting is read from the environment: 256 by default, 0 for none, a whole number', () => {
    expect(loadConfig({}).HTTP_MAX_CONNECTIONS_PER_IP).toBe(256);
    expect(loadConfig({ HTTP_MAX_CONNECTIONS_PER_IP: '0' }).HTTP_MAX_CONNECTIONS_PER_IP).toBe(0);
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS_PER_IP: '2.5' })).toThrow(/HTTP_MAX_CONNECTIONS_PER_IP/);
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS_PER_IP: 'many' })).toThrow(/HTTP_MAX_CONNECTIONS_PER_IP/);
  });
});
