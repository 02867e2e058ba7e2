/**
 * The contract every upstream satisfies. An adaptor converts, it never calls: the pipeline makes the HTTP
 * call (pools, timeouts, retries, billing), so an adaptor can be tested against recorded fixtures alone.
 * See docs/decisions/0001-relay-adaptor-interface.md.
 */
import type { ClaudeRequestOriginal } from './adaptors/anthropic/claude-original.js';
import type { GeminiRequestOriginal } from './adaptors/gemini/gemini-original.js';
import type { ResponsesOriginal } from './adaptors/openai/responses-original.js';

/** What the client asked for, from the path of the front request. */
export type RelayMode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images'
  | 'audio-speech'
  | 'audio-transcription'
  | 'audio-translation';

/**
 * A protocol a front speaks besides OpenAI's chat: Anthropic's Messages API, OpenAI's Responses API and Gemini's
 * generateContent. A channel whose upstream speaks it too serves that front's calls on the native road.
 */
export type FrontProtocol = 'anthropic' | 'responses' | 'gemini';

/**
 * The front's own request, beside the OpenAI chat conversion every channel can serve: what a channel that speaks
 * the front's protocol is sent instead (each adaptor folder's `*-original.ts` says what it holds).
 */
export type NativeRequest =
  | { protocol: 'anthropic'; original: ClaudeRequestOriginal }
  | { protocol: 'responses'; original: ResponsesOriginal }
  | { protocol: 'gemini'; original: GeminiRequestOriginal };

/** The channel settings an adaptor needs, already resolved (base URL default applied, config parsed). */
export interface ChannelSettings {
  id: number;
  type: number;
  name: string;
  key: string;
  /** The channel's base_url, or the type's default; never ends with a slash. */
  baseUrl: string;
  /** Parsed `config` JSON, with one-api's legacy `other` column copied into api_version when empty. */
  config: ChannelConfig;
}

export interface ChannelConfig {
  region?: string;
  sk?: string;
  ak?: string;
  user_id?: string;
  api_version?: string;
  library_id?: string;
  plugin?: string;
  vertex_ai_project_id?: string;
  vertex_ai_adc?: string;
}

/** The request body as the client sent it. */
export type RelayBody =
  | {
      kind: 'json';
      /** Parsed body, already changed by model mapping / system prompt / stream options when `changed`. */
      value: Record<string, unknown>;
      /** The client's bytes, forwarded unchanged when nothing was changed (one-api does the same). */
      raw: Buffer;
      changed: boolean;
    }
  | { kind: 'binary'; raw: Buffer; contentType: string };

/** One relay attempt on one channel. */
export interface RelayCall {
  mode: RelayMode;
  /** The front path, e.g. `/v1/chat/completions`. */
  path: string;
  /** The front query string without `?` ('' when none). */
  query: string;
  /** The upstream model name (after the channel's model mapping). */
  model: string;
  stream: boolean;
  body: RelayBody;
  channel: ChannelSettings;
  /** Client headers an upstream may need (content type and accept only: nothing else is forwarded). */
  clientHeaders: { contentType?: string; accept?: string };
  /**
   * Set when the call takes the native road: it came through a front whose protocol this channel speaks
   * (Adaptor.speaks). The adaptor then sends the front's request, and hands back the upstream's answer as it
   * came (a whole answer beside its conversion; a stream is forwarded by the pipeline without `readStream`).
   */
  native?: NativeRequest;
}

/** What the pipeline sends. */
export interface UpstreamRequest {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: Buffer | string;
}

/** A whole upstream answer, read by the pipeline with a size limit. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * What a call used, in OpenAI's shape: `prompt_tokens` counts every input token (cache reads and writes,
 * audio and image included) and `completion_tokens` every output token (reasoning, audio and image
 * included); the details say which part of each was of which kind, so billing can price each class
 * (callUsageOf in billing/call-usage.ts).
 */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Web searches the upstream ran itself (Claude's server tool, OpenAI's web search), charged per search. */
  web_search_requests?: number;
  /** The prompt's parts: read from the vendor's prompt cache, and audio or image tokens, when any. */
  prompt_tokens_details?: { cached_tokens: number; audio_tokens?: number; image_tokens?: number };
  /** The output's parts: reasoning (billed as output), audio and image tokens, when any. */
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number; image_tokens?: number };
  /** Prompt tokens written to the vendor's cache, when any (counted in `prompt_tokens` too), all TTLs together. */
  cache_creation_input_tokens?: number;
  /** The part of `cache_creation_input_tokens` written for 1 hour (Anthropic's `ephemeral_1h_input_tokens`). */
  cache_creation_1h_input_tokens?: number;
  /** Images generated (image models), for a per-image price. */
  images?: number;
  /** Seconds of audio transcribed or spoken, for a per-second price. */
  audio_seconds?: number;
}

/** The converted answer for the client, plus what billing needs. */
export interface RelayResult {
  status: number;
  /** Headers to copy to the client (content-type at least). */
  headers: Record<string, string>;
  body: Buffer;
  usage?: Usage;
  /** The generated text, for counting tokens when the upstream gave no usage. */
  text?: string;
}

/** One event for the client, already in OpenAI's stream format (the `data:` payload). */
export interface RelayChunk {
  data: string;
  usage?: Usage;
  /** Text generated in this chunk, for counting tokens when no usage arrives. */
  text?: string;
}

/** An upstream failure in OpenAI's error shape, with its HTTP status. */
export interface UpstreamErrorBody {
  status: number;
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/**
 * What the pipeline lends an adaptor: auxiliary calls (token exchanges, task polling) go through the same
 * pools, timeouts and client abort as the main call.
 */
export interface AdaptorTools {
  /** Sends a request and reads the whole answer, whatever its status. */
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  /** Sends a request and hands over the answer with its body unread (a second call that streams, Replicate's). */
  stream(request: UpstreamRequest): Promise<OpenedAnswer>;
  /** Aborted when the client leaves or the relay gives up. */
  signal?: AbortSignal;
}

/** An answer an adaptor obtained through its own transport (WebSocket, vendor SDK), body unread. */
export interface OpenedAnswer {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Buffer>;
}

/**
 * Watches an OpenAI-format event stream that the pipeline forwards byte for byte: sees each `data:` payload
 * as it passes and tells, at the end, what billing needs.
 */
export interface StreamWatcher {
  /**
   * Sees one payload; false drops its line from the stream (an event the client has no use for).
   * `emptyChoices`: whether it has `"choices": []` (hasEmptyChoices), which the forwarder looked for already.
   */
  payload(data: string, emptyChoices?: boolean): boolean;
  /** The last usage the stream reported, and the generated text when it reported none. */
  result(): { usage?: Usage; text: string };
}

export interface Adaptor {
  /** Same as the folder name under relay/adaptors/. */
  readonly id: string;
  /** What it can do: a relay in another mode answers a clear 501 before any call is made. */
  readonly modes: readonly RelayMode[];
  /** The built-in model names of this upstream (GET /api/models, /v1/models). */
  readonly models: readonly string[];
  /** The upstream request; may be async (a token exchange through `tools.send` first). */
  buildRequest(call: RelayCall, tools: AdaptorTools): UpstreamRequest | Promise<UpstreamRequest>;
  /**
   * Only for upstreams one HTTP request cannot reach (iFlytek's WebSocket, Bedrock's signed SDK): opens the
   * answer itself. When present the pipeline calls it instead of sending `buildRequest`'s request; status
   * checks, reading, retries and billing stay the pipeline's.
   */
  open?(call: RelayCall, tools: AdaptorTools): Promise<OpenedAnswer>;
  /** Converts a successful (2xx) whole answer; throws UpstreamError when the body is an error in disguise. */
  readResponse(response: UpstreamResponse, call: RelayCall, tools: AdaptorTools): RelayResult | Promise<RelayResult>;
  /** Converts a 2xx stream; `body` yields the raw bytes as they arrive. */
  readStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk>;
  /**
   * Only for upstreams whose stream is already what an OpenAI client expects: the pipeline then forwards
   * its bytes unchanged (no decoding and re-encoding per event) and this only watches them for billing.
   */
  watchStream?(call: RelayCall): StreamWatcher;
  /** Reads a non-2xx answer into an OpenAI-shaped error. */
  readError(response: UpstreamResponse, call: RelayCall): UpstreamErrorBody;
  /**
   * Whether this channel speaks a front's own protocol for `model` (a Claude upstream the Anthropic front's, …):
   * that front's calls then take the native road (RelayCall.native). Absent, every call is converted.
   */
  speaks?(protocol: FrontProtocol, channel: ChannelSettings, model: string): boolean;
  /**
   * The upstream answered a native call 404 or 405 (an OpenAI-compatible address without `/v1/responses`): when
   * the call may go again converted, what remembers the channel as not speaking the protocol, which the
   * pipeline calls once the converted call is answered (an address that refuses everything teaches nothing).
   */
  nativeRefused?(call: RelayCall, error: UpstreamErrorBody): (() => void) | undefined;
  /**
   * Only for upstreams whose transport frames the protocol's events otherwise (Bedrock's event stream): a native
   * stream's body as the protocol's own server-sent events, which the pipeline then forwards.
   */
  nativeStream?(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<Buffer>;
}
