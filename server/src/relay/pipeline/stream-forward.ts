import type { StreamWatcher } from '../adaptor.js';
import { ssePayload } from './sse-lines.js';
import type { SseWriter } from './stream-writer.js';

/** Longest line held while waiting for its end; an upstream that sends more without a newline is cut off. */
const maxHeldBytes = 16 * 1024 * 1024;
const newline = 0x0a;

// Sticky: tried only where `"choices"` was found, instead of scanning every event.
const emptyChoicesAt = /"choices"\s*:\s*\[\s*\]/y;

/**
 * Whether an OpenAI chunk's JSON text has `"choices": []` (a key: inside a JSON string the quotes are escaped):
 * the usage-only chunk that ends a stream, or Azure's content-filter prelude.
 */
export function hasEmptyChoices(data: string): boolean {
  for (let at = data.indexOf('"choices"'); at !== -1; at = data.indexOf('"choices"', at + 1)) {
    emptyChoicesAt.lastIndex = at;
    if (emptyChoicesAt.test(data)) return true;
  }
  return false;
}

/**
 * The usage-only chunk that ends an OpenAI stream (`choices: []` with the usage): the answer's tail.
 * `emptyChoices`: hasEmptyChoices(data), when the caller has it already.
 */
const isFinalUsage = (data: string, emptyChoices = hasEmptyChoices(data)) =>
  emptyChoices && /"usage"\s*:\s*\{/.test(data);

/**
 * Whether a relay payload begins an answer's tail, which leaves only once the charge is durable: OpenAI's
 * usage-only chunk (a native stream's closing events are told by its front, NativeStream.closing).
 */
export const beginsTail = (data: string) => isFinalUsage(data);

/**
 * Forwards an OpenAI-format event stream as its bytes arrive, whole lines only (a stream that breaks off
 * never leaves half an event at the client), showing each `data:` payload to the watcher. Stops at the
 * upstream's `[DONE]`; tells whether it came. The tail (the final usage chunk, `[DONE]` and whatever follows)
 * is not forwarded but returned, so that it leaves only once the call's charge is durable. Lines holding an `"error"` key (an upstream's error event inside
 * a stream it answered 200) go through `redact` first, so a key or internal URL it echoes never reaches the
 * client; content never holds that key unescaped, so other lines are forwarded untouched.
 */
export async function forwardStream(
  body: AsyncIterable<Buffer>,
  watcher: StreamWatcher,
  writer: Pick<SseWriter, 'forward' | 'holdToEnd'>,
  redact?: (text: string) => string,
): Promise<{ done: boolean; tail: string }> {
  let held: Buffer | undefined;
  let done = false;
  let tail = '';
  let inTail = false;
  let eventOpen = false;
  // The last bytes forwarded, to tell whether they closed an event (a blank line).
  let lastBytes = '';
  /**
   * Shows the lines' payloads to the watcher; returns the text without dropped lines, or undefined if none
   * was. From the tail's first line on, lines go to `tail` instead.
   */
  const watch = (text: string): string | undefined => {
    let kept: string[] | undefined = inTail ? [] : undefined;
    let from = 0;
    while (from < text.length) {
      let end = text.indexOf('\n', from);
      if (end === -1) end = text.length;
      const line = text.charCodeAt(end - 1) === 13 ? text.slice(from, end - 1) : text.slice(from, end);
      const data = ssePayload(line);
      if (data === '[DONE]') done = true;
      // Looked for once a chunk, for the tail and for the watcher.
      const emptyChoices = data !== undefined && data !== '[DONE]' && hasEmptyChoices(data);
      if (!inTail && data !== undefined && (data === '[DONE]' || isFinalUsage(data, emptyChoices))) {
        inTail = true;
        kept ??= [text.slice(0, from)];
      }
      if (data !== undefined && data !== '[DONE]' && !watcher.payload(data, emptyChoices))
        kept ??= [text.slice(0, from)];
      else if (inTail) tail += text.slice(from, end + 1);
      else kept?.push(text.slice(from, end + 1));
      from = end + 1;
    }
    return kept?.join('');
  };
  for await (const chunk of body) {
    const bytes = held ? Buffer.concat([held, chunk]) : chunk;
    const cut = bytes.lastIndexOf(newline);
    if (cut === -1) {
      if (bytes.length > maxHeldBytes) throw new Error(`an event line longer than ${maxHeldBytes} bytes`);
      held = bytes;
      continue;
    }
    held = cut + 1 < bytes.length ? bytes.subarray(cut + 1) : undefined;
    const lines = bytes.subarray(0, cut + 1);
    // A newline byte never sits inside a multi-byte character, so whole lines decode on their own.
    const text = lines.toString('utf8');
    let filtered = watch(text);
    if (redact && text.includes('"error"')) filtered = redact(filtered ?? text);
    const forwarded = filtered ?? lines;
    if (forwarded.length > 0) {
      const end = typeof forwarded === 'string' ? forwarded.slice(-3) : forwarded.subarray(-3).toString('latin1');
      lastBytes = (lastBytes + end).slice(-3);
      eventOpen = !(lastBytes.endsWith('\n\n') || lastBytes.endsWith('\n\r\n'));
      // The rest of this read leaves with the tail (one write to the client, not two).
      if (inTail) writer.holdToEnd();
      const slowClient = writer.forward(forwarded);
      if (slowClient) await slowClient;
    }
    if (done) break;
  }
  // Whatever comes next (the relay's own [DONE] or error) must be an event of its own.
  if (held && !done) {
    const last = held.toString('utf8');
    const text = `${watch(last) ?? last}\n\n`;
    if (inTail) tail += '\n\n';
    else writer.forward(text);
  } else if (eventOpen && !inTail) {
    writer.forward('\n');
  }
  if (inTail && !/\n\r?\n$/.test(tail)) tail += '\n';
  return { done, tail: redact && tail.includes('"error"') ? redact(tail) : tail };
}
