import { readLines } from '../../pipeline/sse-lines.js';
import { parseJsonBody } from './upstream-errors.js';

/** The JSON objects of a newline-delimited JSON stream (Ollama, Cohere); blank and broken lines skipped. */
export async function* readJsonLines(body: AsyncIterable<Buffer>): AsyncIterable<unknown> {
  for await (const line of readLines(body)) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const parsed = parseJsonBody(trimmed);
    if (parsed !== undefined) yield parsed;
  }
}

/** A Buffer as a one-chunk async stream (for fixtures, and for reading a whole SSE body in non-stream mode). */
export async function* bytesOf(...chunks: (Buffer | string)[]): AsyncIterable<Buffer> {
  for (const chunk of chunks) yield Buffer.from(chunk);
}
