import { StringDecoder } from 'node:string_decoder';

/**
 * Splits bytes into text lines of any length (one-api's scanner stopped at 64 KB), synchronously, so that
 * the generators below add one await per line rather than one per layer. Accepts `\n` and `\r\n`;
 * multi-byte characters cut between chunks are kept whole.
 */
class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  // Pieces of the current line; only new text is searched for a newline, so long lines stay linear.
  private pieces: string[] = [];

  /** The lines this chunk completes. */
  push(chunk: Buffer): string[] {
    const text = this.decoder.write(chunk);
    const lines: string[] = [];
    let from = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      lines.push(this.take(text.slice(from, newline)));
      from = newline + 1;
      newline = text.indexOf('\n', from);
    }
    if (from < text.length) this.pieces.push(text.slice(from));
    return lines;
  }

  /** The last line when the bytes did not end with a newline. */
  end(): string | undefined {
    const rest = this.take(this.decoder.end());
    return rest.length > 0 ? rest : undefined;
  }

  private take(last: string): string {
    let line = last;
    if (this.pieces.length > 0) {
      this.pieces.push(last);
      line = this.pieces.join('');
      this.pieces = [];
    }
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }
}

export async function* readLines(body: AsyncIterable<Buffer>): AsyncIterable<string> {
  const splitter = new LineSplitter();
  for await (const chunk of body) yield* splitter.push(chunk);
  const rest = splitter.end();
  if (rest !== undefined) yield rest;
}

/** The payload of a `data:` line (with or without the space after the colon), or undefined for other lines. */
export const ssePayload = (line: string): string | undefined =>
  line.startsWith('data:') ? line.slice(line.startsWith('data: ') ? 6 : 5).trim() : undefined;

/**
 * The `data:` payloads of a server-sent event stream (with or without the space after the colon, as some
 * upstreams send it). Comments, `event:` and other fields are skipped, as one-api does.
 */
export async function* readSseData(body: AsyncIterable<Buffer>): AsyncIterable<string> {
  const splitter = new LineSplitter();
  for await (const chunk of body) {
    for (const line of splitter.push(chunk)) {
      const data = ssePayload(line);
      if (data !== undefined) yield data;
    }
  }
  const rest = splitter.end();
  const data = rest === undefined ? undefined : ssePayload(rest);
  if (data !== undefined) yield data;
}
