import { describe, expect, it } from 'vitest';
import { nativeRelayed } from '../../../test/native-road-kit.js';
import type { NativeStream } from './relay-job.js';

/**
 * A front that rewrites `{"type":"start"}`, lets the rest pass, and begins the closing events at
 * `{"type":"stop"}`: what the Claude and Responses fronts do, with nothing else in the way.
 */
class RewritingFront implements NativeStream {
  closing = false;
  ended = false;
  readonly seen: string[] = [];
  event(data: string): string | undefined {
    this.seen.push(data);
    if (data === '{"type":"start"}') return 'data: {"type":"start","rewritten":true}\n\n';
    if (data === '{"type":"stop"}') this.closing = this.ended = true;
    return undefined;
  }
  result() {
    return { text: '' };
  }
}

async function* chunks(text: string, sizes: number[]): AsyncIterable<Buffer> {
  const bytes = Buffer.from(text);
  let from = 0;
  for (const size of sizes) {
    if (from >= bytes.length) break;
    yield bytes.subarray(from, from + size);
    from += size;
  }
  if (from < bytes.length) yield bytes.subarray(from);
}

const stream = (newline: string) =>
  [
    ': ping',
    'event: start\ndata: {"type":"start"}',
    'data: {"type":"delta","text":"héllo"}',
    'data: {"type":"delta",\ndata: "text":"two lines"}',
    'data: {"type":"stop"}',
  ]
    .map((event) => event.replaceAll('\n', newline) + newline + newline)
    .join('');

describe('forwardNativeStream', () => {
  for (const [name, newline] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ] as const) {
    it(`passes events through whole, rewrites what the front rewrites and keeps the tail, however the reads split (${name})`, async () => {
      const text = stream(newline);
      const whole = await nativeRelayed(chunks(text, [text.length]), new RewritingFront());
      const start = `event: start${newline}data: {"type":"start"}${newline}${newline}`;
      const stop = `data: {"type":"stop"}${newline}${newline}`;
      expect(whole.written).toBe(text.replace(start, 'data: {"type":"start","rewritten":true}\n\n').replace(stop, ''));
      expect(whole.tail).toBe(stop);
      for (let size = 1; size <= 40; size++) {
        const front = new RewritingFront();
        const split = await nativeRelayed(chunks(text, Array(text.length).fill(size)), front);
        expect({ written: split.written, tail: split.tail }, `reads of ${size} bytes`).toEqual({
          written: whole.written,
          tail: whole.tail,
        });
        expect(front.seen).toEqual([
          '{"type":"start"}',
          '{"type":"delta","text":"héllo"}',
          '{"type":"delta",\n"text":"two lines"}',
          '{"type":"stop"}',
        ]);
      }
    });
  }

  it('ends an event the upstream left unfinished, so what follows is an event of its own', async () => {
    const relayed = await nativeRelayed(
      chunks('data: {"type":"delta"}\n\ndata: {"type":"delta","n":2}', [7]),
      new RewritingFront(),
    );
    expect(relayed.written).toBe('data: {"type":"delta"}\n\ndata: {"type":"delta","n":2}\n\n');
  });
});
