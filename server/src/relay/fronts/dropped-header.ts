import type { ChannelSettings, RelayCall } from '../adaptor.js';
import type { FrontOutput } from '../pipeline/relay-job.js';

/** The answer header naming what of a converting front's request the channel that answered never received. */
export const droppedHeader = 'x-modelgate-dropped';

/** Header values stay short: a long list ends with how many more there were. */
const maxHeaderLength = 2000;

function headerValue(dropped: string[]): string {
  let value = '';
  for (const [index, path] of dropped.entries()) {
    const next = value === '' ? path : `${value},${path}`;
    if (next.length > maxHeaderLength) return `${value},+${dropped.length - index} more`;
    value = next;
  }
  return value;
}

/**
 * What an adaptor's own conversion left out of the request, by the channel it built an upstream request for
 * (a Claude channel's reasoning effort beside a forced answer tool, the betas a channel strips …). It rides on
 * the front's chat request under a symbol key, as the fronts' originals do: object spreads keep it (the
 * pipeline's copy of the body, `readChatRequest`), JSON drops it.
 */
const conversionDrops = Symbol('conversion-drops');

type ConversionDrops = Map<number, string[]>;
type Marked = { [conversionDrops]?: ConversionDrops };

/** Has the adaptors' drops for `request` recorded (the front's chat request; the same object). */
export function recordConversionDrops<Request extends object>(request: Request): Request {
  (request as Marked)[conversionDrops] ??= new Map();
  return request;
}

/**
 * Notes what the call's upstream request leaves out, for the channel of the call (the last note per channel
 * counts: a retry on the same channel builds the same request). A request no front records gets its record
 * with its first note of something left out (OpenAI's chat front, see `answerHeadersOf`).
 */
export function noteDropped(call: RelayCall, dropped: string[]): void {
  if (call.body.kind !== 'json') return;
  const request = call.body.value as Marked;
  const record = request[conversionDrops];
  if (record) record.set(call.channel.id, dropped);
  else if (dropped.length > 0) request[conversionDrops] = new Map([[call.channel.id, dropped]]);
}

/**
 * A successful answer's headers from the front (see FrontOutput.answerHeaders) or, on OpenAI's own chat front,
 * `x-modelgate-dropped` naming what the call's adaptor left out, if anything.
 */
export function answerHeadersOf(front: FrontOutput | undefined, call: RelayCall): Record<string, string> | undefined {
  if (front) return front.answerHeaders?.(call.channel);
  const dropped = call.body.kind === 'json' ? (call.body.value as Marked)[conversionDrops]?.get(call.channel.id) : [];
  return dropped?.length ? { [droppedHeader]: headerValue(dropped) } : undefined;
}

/**
 * A converting front's `answerHeaders` (see FrontOutput): `x-modelgate-dropped` lists what its conversion left
 * out (`dropped`) unless the channel that answered got the client's request as it was (`sentNatively`), and
 * what that channel's adaptor left out itself (see `noteDropped`) when `request` (the front's chat request)
 * is given. The pipeline asks with the channel of the attempt that answered, so after a retry the header
 * describes that one.
 */
export function droppedHeaders(
  dropped: string[],
  sentNatively: (channel: ChannelSettings) => boolean,
  request?: object,
): FrontOutput['answerHeaders'] {
  const byAdaptor = request ? (recordConversionDrops(request) as Marked)[conversionDrops] : undefined;
  if (dropped.length === 0 && !byAdaptor) return undefined;
  return (channel): Record<string, string> => {
    const all = [...(sentNatively(channel) ? [] : dropped), ...(byAdaptor?.get(channel.id) ?? [])];
    return all.length > 0 ? { [droppedHeader]: headerValue(all) } : {};
  };
}

/**
 * The `sentNatively` check of a front whose original (the request as the client sent it, riding on the
 * converted one) its vendor's adaptors mark with the channel they built an upstream request from it for.
 * Only the last attempt's channel is kept: a failed native attempt does not speak for the channel after it.
 */
export const sentWholeTo =
  (original: { sentToChannel?: number } | undefined) =>
  (channel: ChannelSettings): boolean =>
    original?.sentToChannel === channel.id;
