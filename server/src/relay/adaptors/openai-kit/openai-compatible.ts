import type {
  Adaptor,
  RelayCall,
  RelayChunk,
  RelayMode,
  UpstreamErrorBody,
  UpstreamRequest,
  UpstreamResponse,
} from '../../adaptor.js';
import { UpstreamError } from '../../upstream-error.js';
import { forwardedHeaders, openAIUrl, upstreamBody, type OpenAIUrlRules } from '../openai/request.js';
import { choicesText, readErrorBody, readOpenAIResponse } from '../openai/response.js';
import { OpenAIStreamWatcher, readOpenAIStream } from '../openai/stream.js';
import { bodyOf } from './chat-request.js';
import { tryParseObject } from './json.js';
import { readUsage } from './usage.js';

export const allOpenAIModes: readonly RelayMode[] = [
  'chat',
  'completions',
  'embeddings',
  'moderations',
  'images',
  'audio-speech',
  'audio-transcription',
  'audio-translation',
];

/**
 * An upstream that speaks OpenAI's protocol: settings, not code (STYLE §3.5). The resellers need only their
 * models and URL rules; vendors with small differences (MiniMax, Spark HTTP, Baichuan, Doubao, Qianfan v2,
 * Bailian) add the hooks below.
 */
export interface OpenAICompatibleSettings extends OpenAIUrlRules {
  id: string;
  models: readonly string[];
  /** Defaults to every mode OpenAI has. */
  modes?: readonly RelayMode[];
  /** Rewrites the JSON body (the client's bytes are then never forwarded as is). */
  rewriteBody?: (body: Record<string, unknown>, call: RelayCall) => Record<string, unknown>;
  /** Finds the vendor's error in a parsed answer or chunk that came with a 2xx status. */
  findError?: (payload: Record<string, unknown>, httpStatus: number) => UpstreamErrorBody | undefined;
  /** Rewrites one parsed stream chunk before it goes to the client. */
  rewriteChunk?: (payload: Record<string, unknown>) => Record<string, unknown>;
  /** Extra headers taken from the call (the channel's settings). */
  extraHeaders?: (call: RelayCall) => Record<string, string>;
}

/** Streams ask for usage in the last chunk, so billing does not have to count tokens itself. */
export function withStreamUsage(body: Record<string, unknown>, call: RelayCall): Record<string, unknown> {
  if (!call.stream || call.mode !== 'chat') return body;
  const options = typeof body.stream_options === 'object' && body.stream_options !== null ? body.stream_options : {};
  return { ...body, stream_options: { ...options, include_usage: true } };
}

function buildRequest(call: RelayCall, settings: OpenAICompatibleSettings): UpstreamRequest {
  const body =
    settings.rewriteBody && call.body.kind === 'json'
      ? JSON.stringify(settings.rewriteBody({ ...bodyOf(call), model: call.model }, call))
      : upstreamBody(call);
  return {
    url: openAIUrl(call, settings),
    method: 'POST',
    headers: {
      ...forwardedHeaders(call),
      authorization: `Bearer ${call.channel.key}`,
      ...settings.headers,
      ...settings.extraHeaders?.(call),
    },
    body,
  };
}

/** The adaptor for an OpenAI-compatible upstream: OpenAI's conversion with the vendor's hooks applied. */
export function openAICompatible(settings: OpenAICompatibleSettings) {
  const { findError, rewriteChunk } = settings;
  const errorIn = (body: Buffer | string, status: number) => {
    const payload = findError && tryParseObject(body);
    return payload ? findError(payload, status) : undefined;
  };
  async function* readHookedStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
    for await (const chunk of readOpenAIStream(body, call)) {
      const error = errorIn(chunk.data, 200);
      if (error) throw new UpstreamError(error);
      const payload = rewriteChunk && tryParseObject(chunk.data);
      if (!payload) {
        yield chunk;
        continue;
      }
      const rewritten = rewriteChunk(payload);
      yield { data: JSON.stringify(rewritten), usage: readUsage(rewritten.usage), text: choicesText(rewritten) };
    }
  }
  const plain = !findError && !rewriteChunk;
  return {
    id: settings.id,
    modes: settings.modes ?? allOpenAIModes,
    models: settings.models,
    buildRequest: (call: RelayCall) => buildRequest(call, settings),
    readResponse(response: UpstreamResponse, call: RelayCall) {
      const error = errorIn(response.body, response.status);
      if (error) throw new UpstreamError(error);
      return readOpenAIResponse(response, call);
    },
    readStream: plain ? readOpenAIStream : readHookedStream,
    // Forwarding the raw bytes would skip the hooks, so only plain OpenAI streams are forwarded.
    ...(plain ? { watchStream: () => new OpenAIStreamWatcher() } : {}),
    readError(response: UpstreamResponse, _call?: RelayCall): UpstreamErrorBody {
      return errorIn(response.body, response.status) ?? readErrorBody(response.status, response.body);
    },
  } satisfies Adaptor;
}
