import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { maxOutputTokens, messageText, readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatRequest } from '../openai-kit/chat-types.js';
import { requiredKey, unsupportedRequest } from '../openai-kit/upstream-errors.js';
import type { PredictionRequest } from './types.js';

/** The language-model input, as one-api builds it: the conversation as `role: text` lines. */
export function replicateChatInput(request: ChatRequest): Record<string, unknown> {
  const prompt = request.messages.map((message) => `${message.role}: ${messageText(message.content)}\n`).join('');
  const input: Record<string, unknown> = {
    prompt,
    max_tokens: maxOutputTokens(request) ?? 500,
    temperature: request.temperature ?? 1,
    top_p: request.top_p ?? 1,
  };
  if (typeof request.presence_penalty === 'number') input.presence_penalty = request.presence_penalty;
  if (typeof request.frequency_penalty === 'number') input.frequency_penalty = request.frequency_penalty;
  return input;
}

const greatestDivisor = (left: number, right: number): number =>
  right === 0 ? left : greatestDivisor(right, left % right);

/** The image input: prompt, aspect ratio from OpenAI's `size`, and the number of outputs. */
export function replicateImageInput(value: Record<string, unknown>): Record<string, unknown> {
  if (typeof value.prompt !== 'string' || value.prompt === '') throw unsupportedRequest('prompt is required');
  const input: Record<string, unknown> = { prompt: value.prompt };
  const size = typeof value.size === 'string' ? /^(\d+)x(\d+)$/.exec(value.size) : null;
  if (size) {
    const width = Number(size[1]);
    const height = Number(size[2]);
    const divisor = greatestDivisor(width, height) || 1;
    input.aspect_ratio = `${width / divisor}:${height / divisor}`;
  }
  if (typeof value.n === 'number' && value.n > 1) input.num_outputs = value.n;
  return input;
}

/** `{base}/v1/models/{owner}/{name}/predictions`; the type's default base already ends in /v1/models. */
export function predictionsUrl(call: RelayCall): string {
  const base = call.channel.baseUrl.replace(/\/+$/, '').replace(/\/v1\/models$/, '');
  return `${base}/v1/models/${call.model}/predictions`;
}

export function replicateHeaders(call: RelayCall): Record<string, string> {
  const key = requiredKey(call.channel.key, 'Replicate', 'an API token');
  return { 'content-type': 'application/json', authorization: `Bearer ${key}` };
}

/**
 * Creates the prediction. Whole answers ask for `Prefer: wait` (Replicate holds the request up to 60 s and
 * usually answers finished); streams ask for a stream URL instead.
 */
export function buildReplicateRequest(call: RelayCall): UpstreamRequest {
  const value = call.body.kind === 'json' ? call.body.value : {};
  const input = call.mode === 'images' ? replicateImageInput(value) : replicateChatInput(readChatRequest(call));
  const body: PredictionRequest = call.stream ? { input, stream: true } : { input };
  const headers = replicateHeaders(call);
  return {
    url: predictionsUrl(call),
    method: 'POST',
    headers: call.stream ? headers : { ...headers, prefer: 'wait' },
    body: JSON.stringify(body),
  };
}
