import { createServer, type RequestListener } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UpstreamClient } from './upstream-client.js';

/** A local upstream on a free port, and how to stop it. */
async function listen(handler: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the upstream client after a reader stops at [DONE]', () => {
  let upstream: Awaited<ReturnType<typeof listen>>;
  let url: string;
  const sockets = new Set<unknown>();
  const requests: { closedAt?: number }[] = [];
  beforeAll(async () => {
    upstream = await listen((request, response) => {
      const seen: { closedAt?: number } = {};
      requests.push(seen);
      sockets.add(request.socket);
      request.socket.once('close', () => (seen.closedAt = Date.now()));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"choices":[]}\n\ndata: [DONE]\n\n');
      // `/done` ends the answer; `/open` keeps it open forever after [DONE].
      if (request.url === '/done') response.end();
    });
    url = upstream.url;
  });
  afterAll(() => upstream.close());

  async function readUntilDone(client: UpstreamClient, path: string) {
    const response = await client.open({ url: `${url}${path}`, method: 'POST', headers: {}, body: '{}' });
    for await (const chunk of response.body) if (chunk.toString().includes('[DONE]')) break;
  }

  test('keeps the connection when the answer ends, and drops it when the upstream holds it open', async () => {
    const client = new UpstreamClient(0);
    await readUntilDone(client, '/done');
    // The rest of the first answer is read in the background; then its connection serves the next call.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await readUntilDone(client, '/done');
    // Both calls went over one connection: the first answer was drained, not destroyed.
    expect(requests).toHaveLength(2);
    expect(sockets.size).toBe(1);
    expect(requests[0]!.closedAt).toBeUndefined();
    const started = Date.now();
    await readUntilDone(client, '/open');
    await expect.poll(() => requests[2]?.closedAt, { timeout: 5000, interval: 100 }).toBeDefined();
    expect(requests[2]!.closedAt! - started).toBeGreaterThan(1500);
    await client.close();
  });
});

describe('the upstream client reading answers', () => {
  let upstream: Awaited<ReturnType<typeof listen>>;
  let url: string;
  /** How far the big stream got: the upstream writes only as fast as the socket takes it. */
  let sentBytes = 0;
  const bigChunk = 'x'.repeat(64 * 1024);
  const bigChunks = 1024; // 64 MiB
  beforeAll(async () => {
    upstream = await listen((request, response) => {
      if (request.url === '/gzip') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return void response.end(gzipSync(JSON.stringify({ hello: 'compressed' })));
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const more = () => {
        while (sent < bigChunks) {
          sent++;
          sentBytes += bigChunk.length;
          if (!response.write(bigChunk)) return void response.once('drain', more);
        }
        response.end();
      };
      more();
    });
    url = upstream.url;
  });
  afterAll(() => upstream.close());

  test('inflates a compressed answer, read whole or as a stream', async () => {
    const client = new UpstreamClient(0);
    const request = { url: `${url}/gzip`, method: 'POST' as const, headers: {}, body: '{}' };
    const whole = await client.readAll(await client.open(request));
    expect(JSON.parse(whole.body.toString())).toEqual({ hello: 'compressed' });
    const parts: Buffer[] = [];
    for await (const part of (await client.open(request)).body) parts.push(part);
    expect(JSON.parse(Buffer.concat(parts).toString())).toEqual({ hello: 'compressed' });
    await client.close();
  });

  test('a slow reader holds the upstream back instead of buffering the whole stream', async () => {
    const client = new UpstreamClient(0);
    const response = await client.open({ url: `${url}/big`, method: 'POST', headers: {}, body: '{}' });
    let received = 0;
    for await (const part of response.body) {
      if (received === 0) {
        // The reader stalls: the client stops taking data, so the upstream cannot send it all (64 MiB
        // goes over loopback in far less than this pause when nothing holds it back).
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(sentBytes).toBeLessThan((bigChunk.length * bigChunks) / 2);
      }
      received += part.length;
    }
    expect(received).toBe(bigChunk.length * bigChunks);
    await client.close();
  });
});
