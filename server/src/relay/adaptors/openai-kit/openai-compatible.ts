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
import { choicesText, readErrorBody, readOpenAIResponse, readUsage } from '../openai/response.js';
import { readOpenAIStream } from '../openai/stream.js';
import { bodyOf } from './openai-chat.js';
import { tryParseObject } from './upstream-failure.js';

/** An OpenAI-like vendor whose differences are small: settings plus a few hooks. */
export interface OpenAILikeSettings extends OpenAIUrlRules {
  id: string;
  models: readonly string[];
  modes: readonly RelayMode[];
  /** Rewrites the JSON body (the client's bytes are then never forwarded as is). */
  rewriteBody?: (body: Record<string, unknown>, call: RelayCall) => Record<string, unknown>;
  /** Finds the vendor's error in a parsed answer or chunk that came with a 2xx status. */
  findError?: (payload: Record<string, unknown>, httpStatus: number) => UpstreamErrorBody | undefined;
  /** Rewrites one parsed stream chunk before it goes to the client. */
  rewriteChunk?: (payload: Record<string, unknown>) => Record<string, unknown>;
  /** Extra headers, possibly from the channel. */
  extraHeaders?: (call: RelayCall) => Record<string, string>;
}

/** Streams ask for usage in the last chunk, so billing does not have to count tokens itself. */
export function withStreamUsage(body: Record<string, unknown>, call: RelayCall): Record<string, unknown> {
  if (!call.stream || call.mode !== 'chat') return body;
  const options = typeof body.stream_options === 'object' && body.stream_options !== null ? body.stream_options : {};
  return { ...body, stream_options: { ...options, include_usage: true } };
}

function buildRequest(call: RelayCall, settings: OpenAILikeSettings): UpstreamRequest {
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

/** An adaptor for an OpenAI-like vendor: OpenAI's conversion with the vendor's body rewrite and error check. */
export function openAILike(settings: OpenAILikeSettings) {
  const findError = (payload: Record<string, unknown> | undefined, status: number) =>
    payload ? settings.findError?.(payload, status) : undefined;
  return {
    id: settings.id,
    modes: settings.modes,
    models: settings.models,
    buildRequest: (call: RelayCall) => buildRequest(call, settings),
    readResponse(response: UpstreamResponse, call: RelayCall) {
      const error = findError(tryParseObject(response.body), response.status);
      if (error) throw new UpstreamError(error);
      return readOpenAIResponse(response, call);
    },
    async *readStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
      for await (const chunk of readOpenAIStream(body, call)) {
        const payload = tryParseObject(chunk.data);
        const error = findError(payload, 200);
        if (error) throw new UpstreamError(error);
        if (!payload || !settings.rewriteChunk) {
          yield chunk;
          continue;
        }
        const rewritten = settings.rewriteChunk(payload);
        yield { data: JSON.stringify(rewritten), usage: readUsage(rewritten.usage), text: choicesText(rewritten) };
      }
    },
    readError(response: UpstreamResponse, _call?: RelayCall): UpstreamErrorBody {
      return findError(tryParseObject(response.body), response.status) ?? readErrorBody(response.status, response.body);
    },
  } satisfies Adaptor;
}
