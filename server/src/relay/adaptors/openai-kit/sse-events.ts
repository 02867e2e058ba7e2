import { readLines } from '../../pipeline/sse-lines.js';
import { parseJson } from './json.js';

export interface SseEvent {
  /** The `event:` name, '' when the event had none. */
  event: string;
  /** The `data:` lines joined with newlines. */
  data: string;
  /** Other fields by name (Zhipu v3 puts its usage in `meta:`); comments and `id:` are not kept. */
  fields: Record<string, string>;
}

/**
 * Folds SSE lines into whole events. Accepts `field:value` with or without the space, and comment lines
 * (`\r` is already stripped by the line readers).
 */
class SseEventFolder {
  private event = '';
  private data: string[] = [];
  private fields: Record<string, string> = {};

  /** The event this line completes, if it is the blank line that ends one. */
  line(line: string): SseEvent | undefined {
    if (line === '') return this.flush();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field !== 'id' && field !== 'retry') this.fields[field] = value;
    return undefined;
  }

  /** The event in progress, if any (also called at the end of the body). */
  flush(): SseEvent | undefined {
    const event =
      this.data.length > 0 || this.event || Object.keys(this.fields).length > 0
        ? { event: this.event, data: this.data.join('\n'), fields: this.fields }
        : undefined;
    this.event = '';
    this.data = [];
    this.fields = {};
    return event;
  }
}

/** Whole server-sent events with their names (Anthropic, Coze v3, Replicate and Zhipu v3 name their events). */
export async function* readSseEvents(body: AsyncIterable<Buffer>): AsyncIterable<SseEvent> {
  const folder = new SseEventFolder();
  for await (const line of readLines(body)) {
    const event = folder.line(line);
    if (event) yield event;
  }
  const last = folder.flush();
  if (last) yield last;
}

/** The events of a whole SSE body held in memory (a stream read to its end by a non-stream call). */
export function parseSseText(text: string): SseEvent[] {
  const folder = new SseEventFolder();
  const events: SseEvent[] = [];
  for (const rawLine of text.split('\n')) {
    const event = folder.line(rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine);
    if (event) events.push(event);
  }
  const last = folder.flush();
  if (last) events.push(last);
  return events;
}

/** The JSON values of a newline-delimited JSON stream (Ollama, Cohere); blank and broken lines skipped. */
export async function* readJsonLines(body: AsyncIterable<Buffer>): AsyncIterable<unknown> {
  for await (const line of readLines(body)) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const parsed = parseJson(trimmed);
    if (parsed !== undefined) yield parsed;
  }
}

/** Bytes as an async stream (for fixtures, and for replaying a whole answer as a stream). */
export async function* bytesOf(...chunks: (Buffer | string)[]): AsyncIterable<Buffer> {
  for (const chunk of chunks) yield Buffer.from(chunk);
}
