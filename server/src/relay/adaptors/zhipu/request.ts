import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { bodyOf, messageText, readChatRequest } from '../openai-kit/chat-request.js';
import { zhipuApiVersion } from './models.js';
import { zhipuToken } from './token.js';
import type { ZhipuV3Request } from './types.js';

/** Zhipu wants temperature and top_p inside the open interval (0, 1); one-api clamped to [0, 1]. */
const openUnit = (value: unknown) => (typeof value === 'number' ? Math.min(0.99, Math.max(0.01, value)) : undefined);

const v4Paths: Record<string, string> = {
  chat: '/api/paas/v4/chat/completions',
  embeddings: '/api/paas/v4/embeddings',
  images: '/api/paas/v4/images/generations',
};

/** The v4 body: OpenAI's, with the mapped model, clamped sampling and `tool_choice` limited to `auto`. */
function v4Body(call: RelayCall): Record<string, unknown> {
  const body: Record<string, unknown> = { ...bodyOf(call), model: call.model };
  if (call.mode !== 'chat') return body;
  for (const name of ['temperature', 'top_p'] as const) {
    if (body[name] !== undefined) body[name] = openUnit(body[name]);
  }
  if (body.tool_choice !== undefined) body.tool_choice = 'auto';
  delete body.stream_options;
  return body;
}

/** The legacy v3 `invoke` body: system turns become user turns, content is flattened to text. */
export function zhipuV3Body(call: RelayCall): ZhipuV3Request {
  const request = readChatRequest(call);
  const prompt = request.messages.map((message) => ({
    role: message.role === 'assistant' ? ('assistant' as const) : ('user' as const),
    content: messageText(message.content),
  }));
  const body: ZhipuV3Request = { prompt, incremental: call.stream };
  if (request.temperature !== undefined) body.temperature = openUnit(request.temperature);
  if (request.top_p !== undefined) body.top_p = openUnit(request.top_p);
  return body;
}

/** The upstream request: v4 (OpenAI-like) for `glm-*`, embeddings and images, v3 `invoke`/`sse-invoke` otherwise. */
export function buildZhipuRequest(call: RelayCall): UpstreamRequest {
  const headers = {
    'content-type': 'application/json',
    accept: call.stream ? 'text/event-stream' : 'application/json',
    // one-api sends the JWT without "Bearer"; the API accepts both.
    authorization: zhipuToken(call.channel.key),
  };
  if (zhipuApiVersion(call.model, call.mode) === 'v4') {
    const path = v4Paths[call.mode] ?? v4Paths.chat!;
    return { url: call.channel.baseUrl + path, method: 'POST', headers, body: JSON.stringify(v4Body(call)) };
  }
  const method = call.stream ? 'sse-invoke' : 'invoke';
  const url = `${call.channel.baseUrl}/api/paas/v3/model-api/${encodeURIComponent(call.model)}/${method}`;
  return { url, method: 'POST', headers, body: JSON.stringify(zhipuV3Body(call)) };
}
