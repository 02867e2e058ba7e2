import { describe, expect, test } from 'vitest';
import { readLines, readSseData } from './sse-lines.js';

async function* pieces(text: string, size: number) {
  const bytes = Buffer.from(text);
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

describe('SSE line reading', () => {
  test('lines of any length (one-api stopped at 64 KB), CRLF endings, multi-byte characters cut between chunks', async () => {
    const long = 'x'.repeat(200_000);
    const text = `data: ${long}\r\n\r\ndata:{"text":"你好"}\n\nevent: ping\n: comment\ndata: [DONE]`;
    for (const size of [1, 3, 1000, 1 << 20]) {
      expect(await collect(readSseData(pieces(text, size)))).toEqual([long, '{"text":"你好"}', '[DONE]']);
    }
    expect(await collect(readLines(pieces('a\r\nb\n\nc', 2)))).toEqual(['a', 'b', '', 'c']);
  });
});
