import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import {
  maxOutputTokens,
  messageParts,
  messageText,
  parseArguments,
  parseDataUrl,
  readChatRequest,
  requestTools,
  stopList,
} from '../openai-kit/chat-request.js';
import type { ChatMessage, ChatRequest } from '../openai-kit/chat-types.js';
import { unsupportedRequest } from '../openai-kit/upstream-errors.js';
import type { OllamaChatRequest, OllamaEmbedRequest, OllamaMessage, OllamaOptions } from './types.js';

function toOllamaMessage(message: ChatMessage): OllamaMessage {
  const role = message.role === 'developer' ? 'system' : message.role === 'function' ? 'tool' : message.role;
  const result: OllamaMessage = { role, content: messageText(message.content) };
  const images: string[] = [];
  for (const part of messageParts(message.content)) {
    if (part.type !== 'image_url') continue;
    const url = (part as { image_url?: { url?: unknown } }).image_url?.url;
    const inline = typeof url === 'string' ? parseDataUrl(url) : undefined;
    // Ollama takes base64 only; fetching client-given URLs from the gateway is not done.
    if (!inline) throw unsupportedRequest('Ollama channels take images as data: URLs (base64) only');
    images.push(inline.data);
  }
  if (images.length > 0) result.images = images;
  if (message.tool_calls?.length) {
    result.tool_calls = message.tool_calls.map((call) => ({
      function: { name: call.function?.name ?? '', arguments: parseArguments(call.function?.arguments) },
    }));
  }
  return result;
}

/** The OpenAI chat request as an `/api/chat` body (stream always explicit: Ollama streams by default). */
export function toOllamaChatRequest(request: ChatRequest): OllamaChatRequest {
  const body: OllamaChatRequest = {
    model: request.model,
    messages: request.messages.map(toOllamaMessage),
    stream: request.stream === true,
  };
  const options: OllamaOptions = {};
  if (typeof request.seed === 'number') options.seed = request.seed;
  if (typeof request.temperature === 'number') options.temperature = request.temperature;
  if (typeof request.top_p === 'number') options.top_p = request.top_p;
  if (typeof request.top_k === 'number') options.top_k = request.top_k;
  if (typeof request.frequency_penalty === 'number') options.frequency_penalty = request.frequency_penalty;
  if (typeof request.presence_penalty === 'number') options.presence_penalty = request.presence_penalty;
  const maxTokens = maxOutputTokens(request);
  if (maxTokens) options.num_predict = maxTokens;
  if (typeof request.num_ctx === 'number') options.num_ctx = request.num_ctx;
  const stop = stopList(request.stop);
  if (stop) options.stop = stop;
  if (Object.keys(options).length > 0) body.options = options;
  const tools = requestTools(request);
  if (tools.length > 0 && request.tool_choice !== 'none')
    body.tools = tools.map((tool) => ({ type: 'function', function: tool.function }));
  if (request.response_format?.type === 'json_object') body.format = 'json';
  if (request.response_format?.type === 'json_schema' && request.response_format.json_schema?.schema)
    body.format = request.response_format.json_schema.schema;
  return body;
}

/** The OpenAI embeddings input as an `/api/embed` body. */
export function toOllamaEmbedRequest(value: Record<string, unknown>, model: string): OllamaEmbedRequest {
  const input = value.input;
  return { model, input: Array.isArray(input) ? input.map(String) : [typeof input === 'string' ? input : ''] };
}

/** `POST {base}/api/chat` or `/api/embed`; the key, when set, goes as Bearer (for Ollama behind a proxy). */
export function buildOllamaRequest(call: RelayCall): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = call.channel.key.trim();
  if (key) headers.authorization = `Bearer ${key}`;
  if (call.mode === 'embeddings') {
    const value = call.body.kind === 'json' ? call.body.value : {};
    return {
      url: `${call.channel.baseUrl}/api/embed`,
      method: 'POST',
      headers,
      body: JSON.stringify(toOllamaEmbedRequest(value, call.model)),
    };
  }
  return {
    url: `${call.channel.baseUrl}/api/chat`,
    method: 'POST',
    headers,
    body: JSON.stringify(toOllamaChatRequest(readChatRequest(call))),
  };
}
