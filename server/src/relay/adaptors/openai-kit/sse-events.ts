import { readLines } from '../../pipeline/sse-lines.js';

export interface SseEvent {
  /** The `event:` name, '' when the event had none. */
  event: string;
  /** The `data:` lines joined with newlines. */
  data: string;
}

/**
 * Whole server-sent events with their names (Anthropic, Coze v3 and Replicate name their events). Accepts
 * `field:value` with or without the space, `\r\n` line ends and comment lines.
 */
export async function* readSseEvents(body: AsyncIterable<Buffer>): AsyncIterable<SseEvent> {
  let event = '';
  let data: string[] = [];
  for await (const line of readLines(body)) {
    if (line === '') {
      if (data.length > 0 || event) yield { event, data: data.join('\n') };
      event = '';
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length > 0 || event) yield { event, data: data.join('\n') };
}

/** The events of a whole SSE body held in memory (a stream read to its end by a non-stream call). */
export function parseSseText(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let event = '';
  let data: string[] = [];
  const flush = () => {
    if (data.length > 0 || event) events.push({ event, data: data.join('\n') });
    event = '';
    data = [];
  };
  for (const rawLine of text.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  flush();
  return events;
}
