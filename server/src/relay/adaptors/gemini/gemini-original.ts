import type { RelayCall } from '../../adaptor.js';
import { maxOutputTokens } from '../openai-kit/chat-request.js';
import type { ChatMessage } from '../openai-kit/chat-types.js';
import { isObject } from '../openai-kit/json.js';
import type { GeminiResponse } from './types.js';

/** The Gemini API method the client called. */
export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'embedContent' | 'batchEmbedContents';

/**
 * What the Gemini front keeps of a request beyond OpenAI's shapes, so that a Gemini upstream (the Gemini API,
 * Gemini on Vertex) receives the client's body as it was sent: every field, part and tool, thought signatures
 * included. It is the job's native request (RelayJob.native), which only a Gemini channel's calls carry.
 */
export interface GeminiRequestOriginal {
  method: GeminiMethod;
  /** The client's body as sent (without the model, which the path names). */
  body: Record<string, unknown>;
  /**
   * The system message the front made of `systemInstruction`: while the OpenAI request still has this very
   * message first, the native body keeps its systemInstruction; a channel's forced system prompt replaces it.
   */
  system?: ChatMessage;
  /**
   * The channel a Gemini adaptor last built the upstream request from the body for: nothing was dropped for
   * that channel's answer.
   */
  sentToChannel?: number;
}

/** The Gemini front's original of a call on the native road. */
export const geminiCallOriginal = (call: RelayCall): GeminiRequestOriginal | undefined =>
  call.native?.protocol === 'gemini' ? call.native.original : undefined;

/**
 * The client's generateContent body for the upstream, its output capped as the converted request's (the balance
 * may have cut it). A channel that forces its own system prompt (the
 * pipeline replaced the front's system message) gets that prompt as the systemInstruction.
 */
export function nativeGenerateBody(call: RelayCall, original: GeminiRequestOriginal): Record<string, unknown> {
  const value = call.body.kind === 'json' ? call.body.value : {};
  const first = Array.isArray(value.messages) ? (value.messages[0] as ChatMessage | undefined) : undefined;
  original.sentToChannel = call.channel.id;
  const body = cappedBody(original.body, maxOutputTokens(value));
  if (!first || first.role !== 'system' || first === original.system) return body;
  const prompt = typeof first.content === 'string' ? first.content : '';
  return { ...body, systemInstruction: { parts: [{ text: prompt }] } };
}

/** The body with `maxOutputTokens` lowered to the converted request's limit, which the balance may have cut. */
function cappedBody(body: Record<string, unknown>, cap: number | undefined): Record<string, unknown> {
  const config = isObject(body.generationConfig) ? body.generationConfig : {};
  if (cap === undefined || (typeof config.maxOutputTokens === 'number' && config.maxOutputTokens <= cap)) return body;
  return { ...body, generationConfig: { ...config, maxOutputTokens: cap } };
}

/** The client's embedContent / batchEmbedContents body, every `model` in it naming the upstream model. */
export function nativeEmbedBody(call: RelayCall, original: GeminiRequestOriginal): Record<string, unknown> {
  original.sentToChannel = call.channel.id;
  const model = `models/${call.model}`;
  const { body } = original;
  const requests = body.requests;
  if (!Array.isArray(requests)) return 'model' in body ? { ...body, model } : body;
  return { ...body, requests: requests.map((request) => (isObject(request) ? { ...request, model } : request)) };
}

/**
 * The OpenAI answer of a Gemini front call with the Gemini answer it was converted from, which the front
 * sends back unchanged; the conversion beside it is what billing and other fronts read.
 */
export type WithGeminiAnswer<Answer> = Answer & { gemini_response?: GeminiResponse | Record<string, unknown> };
