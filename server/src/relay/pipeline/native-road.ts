import type { Adaptor, RelayCall } from '../adaptor.js';
import { isUpstreamError } from '../upstream-error.js';
import type { NativeStream } from './relay-job.js';
import { sendToUpstream, type PipelineTools } from './send.js';
import type { SseWriter } from './stream-writer.js';
import type { OpenResponse, UpstreamClient } from './upstream-client.js';

/**
 * Sends the attempt's call. A native call the upstream answers 404 or 405 (an OpenAI-compatible address with no
 * `/v1/responses`) goes again converted, on the same channel, when its adaptor allows it (the channel's
 * `responses_api` is `auto`); the call then leaves the native road, and is read as a converted one. Once the
 * converted call is answered, the adaptor remembers the channel as converting.
 */
export async function sendOnRoad(
  client: UpstreamClient,
  adaptor: Adaptor,
  call: RelayCall,
  tools: PipelineTools,
): Promise<OpenResponse> {
  try {
    return await sendToUpstream(client, adaptor, call, tools);
  } catch (error) {
    const unknownPath = isUpstreamError(error) && (error.status === 404 || error.status === 405);
    const remember = call.native && unknownPath ? adaptor.nativeRefused?.(call, error.body) : undefined;
    if (!remember) throw error;
    call.native = undefined;
    const response = await sendToUpstream(client, adaptor, call, tools);
    remember();
    return response;
  }
}

/** Longest event held while waiting for its end; an upstream that sends more without a blank line is cut off. */
const maxHeldBytes = 16 * 1024 * 1024;

/**
 * The end of the event starting at `from` (after its blank line: `\n\n` or `\n\r\n`), or -1 when it has not
 * all arrived. One pass from `from`: a read holds many events, and a search for either ending on its own would
 * scan the rest of the read for each of them.
 */
function eventEnd(text: string, from: number): number {
  for (let at = text.indexOf('\n', from); at !== -1; at = text.indexOf('\n', at + 1)) {
    const next = text.charCodeAt(at + 1);
    if (next === 10) return at + 2;
    if (next === 13 && text.charCodeAt(at + 2) === 10) return at + 3;
  }
  return -1;
}

/** The last complete event's end in `bytes` (after its blank line), or -1; reads back from the end. */
function lastEventEnd(bytes: Buffer): number {
  for (let at = bytes.lastIndexOf(10); at > 0; at = bytes.lastIndexOf(10, at - 1)) {
    if (bytes[at - 1] === 10) return at + 1;
    if (bytes[at - 1] === 13 && at > 1 && bytes[at - 2] === 10) return at + 1;
  }
  return -1;
}

/** An event's `data:` payload (its data lines joined), or undefined when it has none (a comment, a ping). */
function eventData(event: string): string | undefined {
  let data: string | undefined;
  let from = 0;
  while (from < event.length) {
    let end = event.indexOf('\n', from);
    if (end === -1) end = event.length;
    if (event.startsWith('data:', from)) {
      const line = event.slice(from + (event.charCodeAt(from + 5) === 32 ? 6 : 5), end);
      const value = line.endsWith('\r') ? line.slice(0, -1) : line;
      data = data === undefined ? value : `${data}\n${value}`;
    }
    from = end + 1;
  }
  return data;
}

/**
 * Forwards a stream in the front's own protocol as its bytes arrive, whole events only (a stream that breaks off
 * never leaves half an event at the client), showing each event's payload to the front's `native` once. Events
 * it leaves alone go out as the upstream wrote them; from its closing events on, the text is kept as the tail,
 * which leaves only once the call's charge is durable. Events holding an `"error"` key go through `redact`
 * first, so a key or internal URL an upstream's error event echoes never reaches the client.
 */
export async function forwardNativeStream(
  body: AsyncIterable<Buffer>,
  native: NativeStream,
  writer: Pick<SseWriter, 'forward' | 'holdToEnd'>,
  redact: (text: string) => string,
): Promise<{ tail: string }> {
  let held: Buffer | undefined;
  let tail = '';
  /** The events of `text` as they are to be written, or undefined when all of them pass unchanged. */
  const relay = (text: string): string | undefined => {
    let written: string[] | undefined;
    // Where the events passing unchanged since the last rewritten one begin: they are copied as one piece.
    let unchangedFrom = 0;
    let from = 0;
    while (from < text.length) {
      let end = eventEnd(text, from);
      if (end === -1) end = text.length;
      const event = text.slice(from, end);
      const data = eventData(event);
      let out = data === undefined ? undefined : native.event(data);
      if ((out ?? event).includes('"error"')) out = redact(out ?? event);
      if (native.closing || out !== undefined) {
        written ??= [];
        if (unchangedFrom < from) written.push(text.slice(unchangedFrom, from));
        unchangedFrom = end;
        if (native.closing) tail += out ?? event;
        else if (out !== undefined) written.push(out);
      }
      from = end;
    }
    if (written && unchangedFrom < text.length) written.push(text.slice(unchangedFrom));
    return written?.join('');
  };
  for await (const chunk of body) {
    const bytes = held ? Buffer.concat([held, chunk]) : chunk;
    const cut = lastEventEnd(bytes);
    if (cut === -1) {
      if (bytes.length > maxHeldBytes) throw new Error(`an event longer than ${maxHeldBytes} bytes`);
      held = bytes;
      continue;
    }
    held = cut < bytes.length ? bytes.subarray(cut) : undefined;
    const events = bytes.subarray(0, cut);
    // A newline byte never sits inside a multi-byte character, so whole events decode on their own.
    const forwarded = relay(events.toString('utf8')) ?? events;
    if (forwarded.length > 0) {
      // The rest of this read leaves with the tail (one write to the client, not two).
      if (native.closing) writer.holdToEnd();
      const slowClient = writer.forward(forwarded);
      if (slowClient) await slowClient;
    }
    if (native.ended) break;
  }
  // An event the upstream left unfinished is ended, so that whatever the front adds is an event of its own.
  if (held && !native.ended) {
    const last = held.toString('utf8').replace(/\r?\n?$/, '\n\n');
    const text = relay(last) ?? last;
    if (text.length > 0) writer.forward(text);
  }
  return { tail };
}
