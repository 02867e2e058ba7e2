import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { MockOpenAIUpstream } from '../../test/mock-openai-upstream.js';
import type { NodeProcess } from '../../test/node-process.js';
import { StartupScope, addChannel, chat, eventually, rootSecrets } from '../../test/startup-kit.js';

/**
 * SIGTERM through the real entry point: the listener closes and idle keep-alive connections are closed at
 * once; requests in flight get 30 s, then they are dropped (and named in the log) and the process exits.
 * Whatever is pending, the process is gone within the bound.
 */
const scope = new StartupScope(2);
const upstreams: MockOpenAIUpstream[] = [];
afterAll(async () => {
  await scope.cleanUp();
  await Promise.all(upstreams.map((upstream) => upstream.close()));
});

const port = (node: NodeProcess) => Number(new URL(node.url).port);

/** A connection that made one keep-alive request and now sits idle; `closedAt` is set when it closes. */
async function idleKeepAlive(node: NodeProcess): Promise<{ socket: Socket; closedAt: () => number | undefined }> {
  const socket = connect(port(node), '127.0.0.1');
  let closedAt: number | undefined;
  socket.on('close', () => (closedAt = Date.now()));
  socket.on('error', () => {});
  let received = '';
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (data: Buffer) => {
      received += data.toString();
      if (received.includes('"success"')) resolve();
    });
    socket.once('close', () => reject(new Error(`closed before the answer: ${received}`)));
    socket.write('GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
  });
  expect(received).toMatch(/^HTTP\/1\.1 200/);
  return { socket, closedAt: () => closedAt };
}

/** Whether a new connection to the node's port is refused. */
const refusesConnections = (node: NodeProcess) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port(node), '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

/** A node (SQLite, LOG_LEVEL=info) whose one channel goes to `upstream`. */
async function startNode(upstream: MockOpenAIUpstream) {
  upstreams.push(upstream);
  const secrets = rootSecrets();
  const database = await scope.database({ name: 'sqlite', redis: false, label: 'sqlite' });
  const node = await scope.start({ ...database.env, ...secrets.env, LOG_LEVEL: 'info' });
  await addChannel(node, secrets.accessToken, upstream.url);
  const exited = new Promise<number | null>((resolve) => node.process.once('exit', (code) => resolve(code)));
  return { node, key: secrets.key, exited };
}

describe.concurrent('SIGTERM', () => {
  test('with idle keep-alive connections only: they are closed and the process exits 0 at once', async () => {
    const { node, exited } = await scope.slot(async () => startNode(await MockOpenAIUpstream.start()));
    const idle = await Promise.all([idleKeepAlive(node), idleKeepAlive(node), idleKeepAlive(node)]);
    const signalledAt = Date.now();
    node.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5000);
    expect(await eventually(async () => idle.every((connection) => connection.closedAt() !== undefined), 1000)).toBe(
      true,
    );
    expect(node.output()).toContain('"msg":"stopped"');
  }, 30_000);

  test('with a request that never ends: listener and idle connections close at once, the request is dropped after 30 s and named in the log', async () => {
    const hanging = await MockOpenAIUpstream.start({ garbage: 'hang' });
    const { node, key, exited } = await scope.slot(() => startNode(hanging));
    const idle = await Promise.all([idleKeepAlive(node), idleKeepAlive(node), idleKeepAlive(node)]);
    const slow = chat(node, key).then(
      (response) => `answered ${response.status}`,
      (error: Error) => `failed: ${error.message}`,
    );
    expect(await eventually(async () => hanging.requests.length > 0, 5000)).toBe(true);

    const signalledAt = Date.now();
    node.process.kill('SIGTERM');
    expect(await eventually(async () => idle.every((connection) => connection.closedAt() !== undefined), 3000)).toBe(
      true,
    );
    expect(await eventually(() => refusesConnections(node), 3000)).toBe(true);
    expect(node.process.exitCode).toBeNull();

    expect(await exited).toBe(1);
    const elapsedMs = Date.now() - signalledAt;
    expect(elapsedMs).toBeGreaterThanOrEqual(29_000);
    expect(elapsedMs).toBeLessThan(36_000);
    expect(await slow).toMatch(/^failed/);
    expect(node.output()).toContain('shutdown took over 30 s: dropping 1 requests, exiting');
    expect(node.output()).toContain('"dropped":["POST /v1/chat/completions"]');
  }, 60_000);
});
