import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { messageText, readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatRequest } from '../openai-kit/chat-types.js';
import { requiredKey } from '../openai-kit/upstream-errors.js';
import type { PalmRequest } from './types.js';

/**
 * The OpenAI chat request as a generateMessage body: system text → `prompt.context`, user turns author "0",
 * the model's author "1". (one-api passed max_tokens as topK; PaLM's chat has no output limit, so it is dropped.)
 */
export function toPalmRequest(request: ChatRequest): PalmRequest {
  const context: string[] = [];
  const messages = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') context.push(messageText(message.content));
    else messages.push({ author: message.role === 'assistant' ? '1' : '0', content: messageText(message.content) });
  }
  const body: PalmRequest = {
    prompt: { ...(context.length > 0 ? { context: context.join('\n') } : {}), messages },
    candidateCount: 1,
  };
  if (typeof request.temperature === 'number') body.temperature = Math.min(request.temperature, 1);
  if (typeof request.top_p === 'number') body.topP = request.top_p;
  if (typeof request.top_k === 'number') body.topK = request.top_k;
  return body;
}

/** `POST {base}/v1beta2/models/chat-bison-001:generateMessage` with `x-goog-api-key`. */
export function buildPalmRequest(call: RelayCall): UpstreamRequest {
  const key = requiredKey(call.channel.key, 'PaLM', 'an API key');
  return {
    url: `${call.channel.baseUrl}/v1beta2/models/chat-bison-001:generateMessage`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
    body: JSON.stringify(toPalmRequest(readChatRequest(call))),
  };
}
