import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { embeddingInputs, messageText, offeredFunctions, readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatRequest } from '../openai-kit/chat-types.js';
import { splitChannelKey } from '../openai-kit/upstream-errors.js';
import { baiduEndpoint, isBaiduEmbeddingModel } from './models.js';
import type { BaiduChatRequest, BaiduEmbeddingRequest, BaiduMessage } from './types.js';

export interface BaiduCredentials {
  apiKey: string;
  secretKey: string;
}

/** `APIKey|SecretKey` (the application's client_id and client_secret). */
export function parseBaiduKey(key: string): BaiduCredentials {
  const [apiKey, secretKey] = splitChannelKey(key, 2, 'Baidu', 'APIKey|SecretKey');
  return { apiKey: apiKey!, secretKey: secretKey! };
}

/**
 * The access-token exchange. It goes to the channel's base URL (interface.md: the base replaces the vendor's
 * host for token exchanges too; one-api hard-coded aip.baidubce.com).
 */
export function baiduTokenRequest(baseUrl: string, credentials: BaiduCredentials): UpstreamRequest {
  const query = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials.apiKey,
    client_secret: credentials.secretKey,
  });
  return { url: `${baseUrl}/oauth/2.0/token?${query}`, method: 'POST', headers: { accept: 'application/json' } };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** OpenAI messages → ERNIE's: system moves to the top-level `system`, tool results become `function` turns. */
export function baiduMessages(request: ChatRequest): { messages: BaiduMessage[]; system?: string } {
  let system: string | undefined;
  const messages: BaiduMessage[] = [];
  for (const message of request.messages) {
    const content = messageText(message.content);
    if (message.role === 'system' || message.role === 'developer') {
      system = content; // one-api keeps the last system message
      continue;
    }
    if (message.role === 'tool' || message.role === 'function') {
      const name = message.name ?? findToolName(request, message.tool_call_id) ?? 'function';
      messages.push({ role: 'function', name, content });
      continue;
    }
    const call = message.tool_calls?.[0];
    if (message.role === 'assistant' && call) {
      messages.push({
        role: 'assistant',
        content,
        function_call: { name: call.function.name, arguments: call.function.arguments },
      });
      continue;
    }
    messages.push({ role: message.role === 'assistant' ? 'assistant' : 'user', content });
  }
  return { messages, system };
}

function findToolName(request: ChatRequest, toolCallId: string | undefined): string | undefined {
  for (const message of request.messages) {
    const match = message.tool_calls?.find((call) => call.id === toolCallId);
    if (match) return match.function.name;
  }
  return undefined;
}

/** The ERNIE chat body. Ranges are clamped to what ERNIE accepts (one-api copied them unchecked). */
export function baiduChatBody(request: ChatRequest): BaiduChatRequest {
  const { messages, system } = baiduMessages(request);
  const functions = offeredFunctions(request);
  const body: BaiduChatRequest = { messages, stream: Boolean(request.stream) };
  if (system) body.system = system;
  if (request.temperature !== undefined) body.temperature = clamp(request.temperature, 0.01, 1);
  if (request.top_p !== undefined) body.top_p = clamp(request.top_p, 0, 1);
  // OpenAI's frequency_penalty is -2…2 around 0; ERNIE's penalty_score is 1…2 around 1.
  if (request.frequency_penalty !== undefined) body.penalty_score = clamp(1 + request.frequency_penalty / 2, 1, 2);
  if (request.max_tokens !== undefined) body.max_output_tokens = request.max_tokens;
  if (request.stop !== undefined) body.stop = Array.isArray(request.stop) ? request.stop : [request.stop];
  if (request.user) body.user_id = request.user;
  if (functions.length > 0)
    body.functions = functions.map(({ name, description, parameters }) => ({ name, description, parameters }));
  return body;
}

/** The wenxinworkshop URL of a call (chat or embeddings family by model). */
export function baiduUrl(call: RelayCall, accessToken: string): string {
  const family = call.mode === 'embeddings' || isBaiduEmbeddingModel(call.model) ? 'embeddings' : 'chat';
  const endpoint = encodeURIComponent(baiduEndpoint(call.model));
  return `${call.channel.baseUrl}/rpc/2.0/ai_custom/v1/wenxinworkshop/${family}/${endpoint}?access_token=${encodeURIComponent(accessToken)}`;
}

/** The whole upstream request, given the access token obtained for the channel's key. */
export function buildBaiduRequest(call: RelayCall, accessToken: string): UpstreamRequest {
  const body: BaiduChatRequest | BaiduEmbeddingRequest =
    call.mode === 'embeddings' ? { input: embeddingInputs(call) } : baiduChatBody(readChatRequest(call));
  return {
    url: baiduUrl(call, accessToken),
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: call.stream ? 'text/event-stream' : 'application/json' },
    body: JSON.stringify(body),
  };
}
