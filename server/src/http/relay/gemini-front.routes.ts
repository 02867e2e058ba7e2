import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isAppError } from '../../lib/errors.js';
import type {
  GeminiMethod,
  GeminiRequestOriginal,
  WithGeminiAnswer,
} from '../../relay/adaptors/gemini/gemini-original.js';
import type { ChatCompletion } from '../../relay/adaptors/openai-kit/chat-types.js';
import { assertModelAllowed } from '../../relay/auth/token-auth.js';
import { droppedHeaders, sentWholeTo } from '../../relay/fronts/dropped-header.js';
import { embeddingVectors, geminiToEmbeddingsRequest } from '../../relay/fronts/gemini/embeddings.js';
import { GeminiRequestError, googleError, googleLowBalance } from '../../relay/fronts/gemini/errors.js';
import { refusalKindOf } from '../../relay/relay-errors.js';
import { withCamelCaseFields } from '../../relay/fronts/gemini/field-names.js';
import { geminiModelEntry } from '../../relay/fronts/gemini/models.js';
import { geminiToChatRequest } from '../../relay/fronts/gemini/request.js';
import { chatCompletionToGemini } from '../../relay/fronts/gemini/response.js';
import { GeminiNativeStream, GeminiStreamWriter, type GeminiStreamFraming } from '../../relay/fronts/gemini/stream.js';
import type { GeminiEmbedContentRequest, GeminiFrontRequest } from '../../relay/fronts/gemini/types.js';
import type { FrontOutput } from '../../relay/pipeline/relay-job.js';
import { relayText } from '../../relay/pipeline/text-relay.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { countMessages } from '../../relay/tokenizer/count-tokens.js';
import { isUpstreamError } from '../../relay/upstream-error.js';
import { frontRelayJob, parseJsonBody } from './front-job.js';
import {
  geminiBatchEmbedContentsBody,
  geminiBodyProblem,
  geminiCountTokensBody,
  geminiEmbedContentBody,
  geminiGenerateContentBody,
} from './gemini-front.schema.js';
import { modelsOfKey } from './models.routes.js';
import { relayLanguage, type ErrorAnswer } from './openai-error.js';
import { sendJson, type EntryCall, type RelayEndpoint, type RelayRoute } from './relay-entry.js';

/** Inline images, audio and PDFs come base64 in the body. */
const bodyLimitBytes = 32 * 1024 * 1024;

/** Every failure of the Gemini front in Google's error shape, naming the offending field when there is one. */
const geminiErrorAnswer: ErrorAnswer = (error, requestId, acceptLanguage, logUnexpected) => {
  const withRequestId = (message: string) => `${message} (request id: ${requestId})`;
  if (error instanceof GeminiRequestError)
    return {
      status: error.code,
      body: googleError(error.code, withRequestId(error.message), error.field ? { field: error.field } : {}),
    };
  if (isAppError(error)) {
    const text = withRequestId(error.text[relayLanguage(acceptLanguage)]);
    if (refusalKindOf(error) === 'low_balance') return googleLowBalance(text);
    const status = error.status === 200 ? 400 : error.status;
    return { status, body: googleError(status, text) };
  }
  if (isUpstreamError(error)) {
    // A Google upstream's own status name (INVALID_ARGUMENT …) is kept.
    const { message, type } = error.body;
    const status = /^[A-Z_]+$/.test(type) ? { status: type } : {};
    return { status: error.status, body: googleError(error.status, withRequestId(message), status) };
  }
  const { statusCode } = error as { statusCode?: number };
  if (statusCode && statusCode >= 400 && statusCode < 500)
    return { status: statusCode, body: googleError(statusCode, withRequestId((error as Error).message)) };
  logUnexpected(error);
  return { status: 500, body: googleError(500, withRequestId('internal error of the gateway')) };
};

/**
 * Google's clients send the key as `x-goog-api-key` (the SDKs, Gemini CLI) or `?key=` (curl examples); a
 * Bearer Authorization header works too.
 */
function geminiAuthorization(headers: IncomingHttpHeaders, url: string | undefined): string | undefined {
  const apiKey = headers['x-goog-api-key'];
  if (typeof apiKey === 'string' && apiKey !== '') return `Bearer ${apiKey}`;
  const key = new URL(url ?? '', 'http://relay').searchParams.get('key');
  return key ? `Bearer ${key}` : headers.authorization;
}

/** The body checked against its schema, snake_case field names read as camelCase. */
function parseBody<T extends z.ZodTypeAny>(value: unknown, schema: T): z.infer<T> {
  const checked = schema.safeParse(withCamelCaseFields(value));
  if (checked.success) return checked.data;
  const problem = geminiBodyProblem(checked.error);
  throw new GeminiRequestError(problem.field, problem.message);
}

/** `gemini-2.5-flash:generateContent` (the path after `models/`) as its model and method. */
function modelAndMethod(tail: string | undefined): { model: string; method: string } {
  const separator = (tail ?? '').lastIndexOf(':');
  if (separator <= 0) throw new GeminiRequestError(null, `no method in models/${tail ?? ''}`, 404);
  return { model: tail!.slice(0, separator), method: tail!.slice(separator + 1) };
}

/**
 * The relay's chat output as Gemini's: the upstream's own answer when it was Gemini's, else converted; a
 * stream without `alt=sse` is one JSON array written piece by piece.
 */
function generateOutput(model: string, framing: GeminiStreamFraming): FrontOutput {
  const writer = new GeminiStreamWriter(model, framing);
  return {
    ...(framing === 'array' ? { streamContentType: 'application/json; charset=UTF-8' } : {}),
    whole: (body) => {
      const answer = JSON.parse(body.toString('utf8')) as WithGeminiAnswer<ChatCompletion>;
      const response = answer.gemini_response ?? chatCompletionToGemini(answer, model);
      return {
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        body: Buffer.from(JSON.stringify(response)),
      };
    },
    event: (data) => writer.payload(data),
    nativeStream: () => new GeminiNativeStream(writer, framing),
  };
}

/** The relay's embeddings output as embedContent's (one embedding) or batchEmbedContents' answer. */
function embeddingsOutput(method: GeminiMethod): FrontOutput {
  return {
    whole: (body) => {
      const answer = JSON.parse(body.toString('utf8')) as WithGeminiAnswer<Record<string, unknown>>;
      const vectors = embeddingVectors(answer);
      const response =
        answer.gemini_response ??
        (method === 'embedContent'
          ? { embedding: { values: vectors[0] ?? [] } }
          : { embeddings: vectors.map((values) => ({ values })) });
      return {
        headers: { 'content-type': 'application/json; charset=UTF-8' },
        body: Buffer.from(JSON.stringify(response)),
      };
    },
    event: () => '',
  };
}

/**
 * Gemini's own API in front of every channel (beyond one-api), for Google's SDKs and Gemini CLI:
 * `models/{model}:generateContent`, `:streamGenerateContent` (SSE with `alt=sse`, else a JSON array),
 * `:countTokens` (counted locally), `:embedContent`, `:batchEmbedContents`, and the model list, under
 * `/v1beta` and (for the POST methods) `/v1`. Gemini and Vertex channels get the client's body as sent and
 * answer unchanged; any other channel gets it converted to a chat (or embeddings) request, with what it
 * cannot take named in `x-modelgate-dropped`. Routing, retries and billing are those of any relay call.
 */
export function geminiFrontRoutes(context: AppContext, runtime: RelayRuntime): RelayRoute[] {
  const endpoint = (handle: RelayEndpoint['handle']): RelayEndpoint => ({
    bodyLimitBytes,
    handle,
    authorization: geminiAuthorization,
    errorAnswer: geminiErrorAnswer,
  });
  const approximate = () => context.options.bool('ApproximateTokenEnabled');

  const generate = async (call: EntryCall, model: string, method: 'generateContent' | 'streamGenerateContent') => {
    const sent = parseJsonBody(call.body);
    const body = parseBody(sent, geminiGenerateContentBody) as GeminiFrontRequest;
    const stream = method === 'streamGenerateContent';
    const { chat, dropped, system } = geminiToChatRequest(body, model, stream);
    assertModelAllowed(call.principal.token, model);
    const original: GeminiRequestOriginal = { method, body: sent as Record<string, unknown>, system };
    const alt = new URL(call.request.url ?? '', 'http://relay').searchParams.get('alt');
    const framing: GeminiStreamFraming = stream && alt !== 'sse' ? 'array' : 'sse';
    const job = frontRelayJob(context, runtime, call, chat, {
      native: { protocol: 'gemini', original },
      front: { ...generateOutput(model, framing), answerHeaders: droppedHeaders(dropped, sentWholeTo(original), chat) },
    });
    await relayText(job);
  };

  const countTokens = (call: EntryCall, model: string) => {
    const body = parseBody(parseJsonBody(call.body), geminiCountTokensBody);
    const request = body.generateContentRequest ?? (body.contents ? { contents: body.contents } : undefined);
    if (!request) throw new GeminiRequestError('contents', 'contents is not specified');
    assertModelAllowed(call.principal.token, model);
    const { chat } = geminiToChatRequest(request as GeminiFrontRequest, model, false);
    sendJson(call.reply, 200, { totalTokens: countMessages(chat.messages, model, approximate()) });
  };

  const embed = async (call: EntryCall, model: string, method: 'embedContent' | 'batchEmbedContents') => {
    const sent = parseJsonBody(call.body);
    const requests: GeminiEmbedContentRequest[] =
      method === 'embedContent'
        ? [parseBody(sent, geminiEmbedContentBody)]
        : parseBody(sent, geminiBatchEmbedContentsBody).requests;
    const prefix = method === 'embedContent' ? () => '' : (index: number) => `requests[${index}].`;
    const { request, dropped } = geminiToEmbeddingsRequest(requests, model, prefix);
    assertModelAllowed(call.principal.token, model);
    const original: GeminiRequestOriginal = { method, body: sent as Record<string, unknown> };
    const job = frontRelayJob(context, runtime, call, request, {
      mode: 'embeddings',
      native: { protocol: 'gemini', original },
      front: { ...embeddingsOutput(method), answerHeaders: droppedHeaders(dropped, sentWholeTo(original)) },
    });
    await relayText(job);
  };

  const modelMethod = endpoint(async (call) => {
    const { model, method } = modelAndMethod(call.params.model);
    if (method === 'generateContent' || method === 'streamGenerateContent') return generate(call, model, method);
    if (method === 'countTokens') return countTokens(call, model);
    if (method === 'embedContent' || method === 'batchEmbedContents') return embed(call, model, method);
    throw new GeminiRequestError(null, `method ${method} is not served by this gateway`, 404);
  });
  const list = endpoint(async ({ principal, reply }) => {
    sendJson(reply, 200, { models: modelsOfKey(principal, runtime).map(geminiModelEntry) });
  });
  const one = endpoint(async ({ principal, params, reply }) => {
    const id = params.model ?? '';
    if (!modelsOfKey(principal, runtime).includes(id))
      throw new GeminiRequestError('name', `models/${id} is not found or this key may not call it`, 404);
    sendJson(reply, 200, geminiModelEntry(id));
  });
  return [
    // `:model` is `{model}:{method}` here (Fastify cannot split a segment at a colon).
    { method: 'POST', path: '/v1beta/models/:model', endpoint: modelMethod },
    // Google serves the same methods under v1; GET /v1/models stays OpenAI's list.
    { method: 'POST', path: '/v1/models/:model', endpoint: modelMethod },
    { method: 'GET', path: '/v1beta/models', endpoint: list },
    { method: 'GET', path: '/v1beta/models/:model', endpoint: one },
  ];
}
