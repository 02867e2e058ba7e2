import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a byte stream into text lines of any length (one-api's scanner stopped at 64 KB). Accepts `\n` and
 * `\r\n`; multi-byte characters cut between chunks are kept whole.
 */
export async function* readLines(body: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  // Pieces of the current line; only new text is searched for a newline, so long lines stay linear.
  let pieces: string[] = [];
  const take = (last: string) => {
    pieces.push(last);
    const line = pieces.join('');
    pieces = [];
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  };
  for await (const chunk of body) {
    const text = decoder.write(chunk);
    let from = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      yield take(text.slice(from, newline));
      from = newline + 1;
      newline = text.indexOf('\n', from);
    }
    if (from < text.length) pieces.push(text.slice(from));
  }
  const rest = take(decoder.end());
  if (rest.length > 0) yield rest;
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
