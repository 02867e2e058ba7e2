import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a byte stream into text lines of any length (one-api's scanner stopped at 64 KB). Accepts `\n` and
 * `\r\n`; multi-byte characters cut between chunks are kept whole.
 */
export async function* readLines(body: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const chunk of body) {
    pending += decoder.write(chunk);
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
      newline = pending.indexOf('\n');
    }
  }
  pending += decoder.end();
  if (pending.length > 0) yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}

/**
 * The `data:` payloads of a server-sent event stream (with or without the space after the colon, as some
 * upstreams send it). Comments, `event:` and other fields are skipped, as one-api does.
 */
export async function* readSseData(body: AsyncIterable<Buffer>): AsyncIterable<string> {
  for await (const line of readLines(body)) {
    if (!line.startsWith('data:')) continue;
    yield line.slice(line.startsWith('data: ') ? 6 : 5).trim();
  }
}
