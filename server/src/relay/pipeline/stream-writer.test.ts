import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contentChunk as chunk, usageEvent } from '../../../test/chat-fixtures.js';
import { OpenAIStreamWatcher } from '../adaptors/openai/stream.js';
import type { RelayReply } from './relay-job.js';
import { forwardStream } from './stream-forward.js';
import { SseWriter } from './stream-writer.js';

const stream = chunk('Hel') + chunk('lo') + chunk(' there') + usageEvent + 'data: [DONE]\n\n';

const replyOf = (raw: ServerResponse): RelayReply => ({ raw, getHeaders: () => ({}) }) as unknown as RelayReply;

/** An upstream body arriving in these reads, the first with the headers, the next ones a few turns apart. */
async function* reads(parts: string[]) {
  for (const [index, part] of parts.entries()) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    yield Buffer.from(part);
  }
}

/**
 * A real HTTP server relaying `parts` as the relay does: forwarded as they come, the tail sent once the charge is
 * durable (one turn later, as the journal line is written). Counts the system calls writing to the client.
 */
describe('an SSE answer reaches the client in as few writes as its upstream reads allow', () => {
  let parts: string[] = [];
  let writes = 0;
  /** Whether the client had the first read's events before the tail was released. */
  let firstSeenBeforeTail = false;
  let received = '';
  let url = '';
  const server = createServer((_, response) => {
    const socket = response.socket as Socket & { _writeGeneric: (...args: unknown[]) => unknown };
    const writeGeneric = socket._writeGeneric;
    socket._writeGeneric = function counted(...args: unknown[]) {
      writes += 1;
      return writeGeneric.apply(this, args);
    };
    void (async () => {
      const writer = new SseWriter(replyOf(response));
      writer.start();
      const { tail } = await forwardStream(reads(parts), new OpenAIStreamWatcher(), writer);
      // The charge's journal line: written at the end of this turn.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      firstSeenBeforeTail = received.includes('Hel');
      writer.forward(tail);
      writer.end();
    })();
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function relay(upstreamReads: string[]): Promise<string> {
    parts = upstreamReads;
    writes = 0;
    received = '';
    const response = await fetch(url);
    const decoder = new TextDecoder();
    for await (const bytes of response.body!) received += decoder.decode(bytes, { stream: true });
    return received;
  }

  test('a stream read at once (the tail in the same read) leaves in one write, headers included', async () => {
    expect(await relay([stream])).toBe(stream);
    expect(writes).toBe(1);
  });

  test('events read before the tail go at once; those read with it leave with it', async () => {
    const head = chunk('Hel') + chunk('lo');
    expect(await relay([head, chunk(' there') + usageEvent + 'data: [DONE]\n\n'])).toBe(stream);
    expect(firstSeenBeforeTail).toBe(true);
    // The headers with the first read, then the last read's event with the tail.
    expect(writes).toBe(2);
  });
});
