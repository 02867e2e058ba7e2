import type { ServerResponse } from 'node:http';
import type { AppContext } from '../../context.js';
import type { OutlineObject } from '../../lib/json-outline.js';
import type { ChannelSettings, NativeRequest, RelayCall, RelayMode, Usage } from '../adaptor.js';
import type { RelayPrincipal } from '../auth/token-auth.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import type { RelaySession } from '../routing/session-key.js';
import type { RelayRuntime } from '../runtime.js';
import type { Cancel } from './cancel.js';

/** The front request's body, read once and kept whole so that every retry can resend it. */
export type JobBody =
  /**
   * `filled` when `raw` does not stand for `value`: a default (model) the client's bytes lack, or a converted
   * request. A long body comes with its `outline` (lib/json-outline.ts), and its `value` decodes each member
   * when it is first read.
   */
  | { kind: 'json'; value: Record<string, unknown>; raw: Buffer; filled: boolean; outline?: OutlineObject }
  | { kind: 'binary'; raw: Buffer; contentType: string; fields: Record<string, string>; form: FormData };

/**
 * A front that speaks another protocol than OpenAI's (Anthropic Messages, OpenAI Responses, Gemini): the relay
 * runs in OpenAI's shapes and this turns its output into the front's just before it is written.
 */
export interface FrontOutput {
  /** A whole successful answer (OpenAI JSON) as the front's body and headers. */
  whole(body: Buffer, status: number): { body: Buffer; headers: Record<string, string> };
  /** One stream event's `data:` payload (OpenAI chunk, error object or `[DONE]`) as the front's raw stream text. */
  event(data: string): string;
  /** The stream's content type when it is not an event stream (Gemini's JSON array without `alt=sse`). */
  streamContentType?: string;
  /**
   * Headers of a successful answer (whole, or the stream's) from the channel of the attempt that answered:
   * after a failed attempt, those of the channel that served instead (`x-modelgate-dropped`).
   */
  answerHeaders?(channel: ChannelSettings): Record<string, string>;
  /**
   * The native road's stream (a channel that speaks the front's protocol): the upstream's events go out as they
   * came, each seen once by this. The relay's own `[DONE]` or error payload still reaches `event`, which then
   * closes the native stream the front's way.
   */
  nativeStream?(): NativeStream;
}

/**
 * A front's view of a native stream: the pipeline forwards the upstream's events byte for byte and shows this
 * each event's `data:` payload, so that usage is read from the events that carry it and the few events the
 * gateway must change (the model the client named, the gateway's response id) are written anew.
 */
export interface NativeStream {
  /** One event's `data:` payload: undefined passes the event's bytes on, a string is written instead ('' drops it). */
  event(data: string): string | undefined;
  /** Whether the answer's closing events have begun (they leave once the call's charge is durable). */
  readonly closing: boolean;
  /** Whether the upstream's stream ended itself: the front adds no closing events. */
  readonly ended: boolean;
  /** What billing needs: the usage the events reported, and the generated text only when it may be needed. */
  result(): { usage?: Usage; text: string };
}

/**
 * What the pipeline writes its answer through (the relay entry's, on Node's response): a whole answer with
 * `send`, or a stream written to `raw` with the headers gathered so far.
 */
export interface RelayReply {
  readonly raw: ServerResponse;
  status(code: number): RelayReply;
  headers(values: Record<string, string>): RelayReply;
  send(body: Buffer): void;
  getHeaders(): Record<string, string>;
}

/**
 * A job that only some channels serve fully (the Anthropic front's documents and server tools). `only` is
 * strict: other channels are skipped, and when the model has channels but none of them is accepted (or a
 * forced one is not), its refusal answers. `prefers` orders: the channels it names are tried first, and the
 * others serve once none of those is left (server tools run on Claude channels, others answer without them).
 */
export interface ChannelLimit {
  only?: { accepts(channel: RoutedChannel): boolean; refusal(): Error };
  prefers?(channel: RoutedChannel): boolean;
}

/** One front request to the relay, everything the attempts share. */
export interface RelayJob {
  context: AppContext;
  runtime: RelayRuntime;
  principal: RelayPrincipal;
  mode: RelayMode;
  path: string;
  query: string;
  requestId: string;
  /** performance.now() at arrival, for elapsed_time. */
  startedAt: number;
  /** The model the client asked for (before any channel's mapping). */
  model: string;
  stream: boolean;
  body: JobBody;
  clientHeaders: { contentType?: string; accept?: string };
  /** Cancelled when the client goes away: the upstream call is abandoned with it. */
  cancel: Cancel;
  reply: RelayReply;
  /** Set by non-OpenAI fronts; absent, answers go out in OpenAI's shapes unchanged. */
  front?: FrontOutput;
  /** The front's own request, for the channels that speak its protocol (the native road, Adaptor.speaks). */
  native?: NativeRequest;
  /** Set when only some channels can serve the request. */
  channelLimit?: ChannelLimit;
  /** Web searches the upstream may run at most (the Anthropic front's `max_uses`), reserved with the estimate. */
  maxWebSearches?: number;
  /** Set when the call names its conversation: it goes to the conversation's channel while that one may serve it. */
  session?: RelaySession;
}

export const elapsedMs = (job: RelayJob) => Math.round(performance.now() - job.startedAt);

/**
 * What the adaptor sees of one attempt: the job's request, on this channel, for its upstream model; the front's
 * own request too when the channel speaks the front's protocol.
 */
export function relayCallOf(
  job: RelayJob,
  channel: RoutedChannel,
  model: string,
  body: RelayCall['body'],
  stream: boolean,
): RelayCall {
  const call: RelayCall = {
    mode: job.mode,
    path: job.path,
    query: job.query,
    model,
    stream,
    body,
    channel: channel.settings,
    clientHeaders: job.clientHeaders,
  };
  if (job.native && channel.adaptor?.speaks?.(job.native.protocol, channel.settings, model)) call.native = job.native;
  return call;
}

/** Whether the attempt's call takes the native road: its stream is then forwarded as the upstream wrote it. */
export const nativeStreamOf = (job: RelayJob, call: RelayCall): NativeStream | undefined =>
  call.native && call.stream ? job.front?.nativeStream?.() : undefined;

/** The model the channel is asked for: the job's, through the channel's model mapping. */
export const upstreamModelOf = (job: RelayJob, channel: RoutedChannel) => channel.mapping[job.model] ?? job.model;
