import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { bodyOf, embeddingInputs, messageText, readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatRequest } from '../openai-kit/chat-types.js';
import { isObject } from '../openai-kit/json.js';
import { channelKeyError } from '../openai-kit/upstream-errors.js';
import type { AliChatRequest, AliContentPart, AliEmbeddingRequest, AliImageRequest, AliMessage } from './types.js';

const searchSuffix = '-internet';

/** The DashScope API key; it is one opaque string, so only emptiness and inner spaces are refused. */
export function aliKey(call: RelayCall): string {
  const key = call.channel.key.trim();
  if (key === '' || /\s/.test(key)) throw channelKeyError('Ali', 'one DashScope API key (sk-…)');
  return key;
}

/** Old one-api versions kept the plugin JSON in the legacy `other` column (→ api_version). */
const legacyPlugin = (value: string | undefined) => (value?.trim().startsWith('{') ? value.trim() : undefined);

function headers(call: RelayCall): Record<string, string> {
  const result: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${aliKey(call)}`,
  };
  if (call.stream) {
    result['x-dashscope-sse'] = 'enable';
    result.accept = 'text/event-stream';
  } else {
    result.accept = 'application/json';
  }
  const plugin = call.channel.config.plugin || legacyPlugin(call.channel.config.api_version);
  if (plugin) result['x-dashscope-plugin'] = plugin;
  return result;
}

/** Multimodal models (qwen-vl…) and any request with pictures use the multimodal-generation service. */
export function isAliMultimodal(request: ChatRequest): boolean {
  if (/^qwen-(vl|audio)/.test(request.model)) return true;
  return request.messages.some(
    (message) =>
      Array.isArray(message.content) && message.content.some((part) => isObject(part) && part.type === 'image_url'),
  );
}

/** OpenAI content parts → DashScope's `{text}` / `{image}` parts. */
function aliParts(content: unknown): AliContentPart[] {
  if (!Array.isArray(content)) return [{ text: messageText(content) }];
  return content.filter(isObject).flatMap((part): AliContentPart[] => {
    if (part.type === 'text' && typeof part.text === 'string') return [{ text: part.text }];
    const url = isObject(part.image_url) ? part.image_url.url : undefined;
    return part.type === 'image_url' && typeof url === 'string' ? [{ image: url }] : [];
  });
}

function aliMessages(request: ChatRequest): AliMessage[] {
  const multimodal = isAliMultimodal(request);
  return request.messages.map((message) => {
    const content = multimodal ? aliParts(message.content) : messageText(message.content);
    const converted: AliMessage = { role: message.role === 'developer' ? 'system' : message.role, content };
    if (message.name) converted.name = message.name;
    if (message.tool_calls?.length) converted.tool_calls = message.tool_calls;
    if (message.tool_call_id) converted.tool_call_id = message.tool_call_id;
    return converted;
  });
}

/**
 * The native text-generation body. A `-internet` model suffix turns on web search (one-api's convention);
 * `top_p` must stay below 1; stream output is incremental, otherwise every event repeats the whole text.
 */
export function aliChatBody(request: ChatRequest): AliChatRequest {
  const search = request.model.endsWith(searchSuffix);
  const parameters: AliChatRequest['parameters'] = {
    result_format: 'message',
    incremental_output: Boolean(request.stream),
  };
  if (request.max_tokens !== undefined) parameters.max_tokens = request.max_tokens;
  if (request.temperature !== undefined) parameters.temperature = request.temperature;
  if (request.top_p !== undefined) parameters.top_p = Math.min(request.top_p, 0.9999);
  if (request.top_k !== undefined) parameters.top_k = request.top_k;
  if (request.seed !== undefined) parameters.seed = request.seed;
  if (request.stop !== undefined) parameters.stop = request.stop;
  if (search) parameters.enable_search = true;
  if (request.tools?.length) {
    parameters.tools = request.tools;
    if (request.tool_choice !== undefined) parameters.tool_choice = request.tool_choice;
  }
  return {
    model: search ? request.model.slice(0, -searchSuffix.length) : request.model,
    input: { messages: aliMessages(request) },
    parameters,
  };
}

/** OpenAI's `1024x1024` is DashScope's `1024*1024`. */
export const aliImageSize = (size: unknown) => (typeof size === 'string' ? size.replace('x', '*') : '1024*1024');

function imageBody(call: RelayCall): AliImageRequest {
  const body = bodyOf(call);
  const parameters: AliImageRequest['parameters'] = {
    size: aliImageSize(body.size),
    n: typeof body.n === 'number' ? body.n : 1,
  };
  if (typeof body.style === 'string') parameters.style = `<${body.style}>`;
  const input: AliImageRequest['input'] = { prompt: String(body.prompt ?? '') };
  if (typeof body.negative_prompt === 'string') input.negative_prompt = body.negative_prompt;
  return { model: call.model, input, parameters };
}

/** The first upstream request of a call: text generation, embeddings, or the image task submission. */
export function buildAliRequest(call: RelayCall): UpstreamRequest {
  const base = call.channel.baseUrl;
  if (call.mode === 'embeddings') {
    const body: AliEmbeddingRequest = {
      model: call.model,
      input: { texts: embeddingInputs(call) },
      parameters: { text_type: 'query' },
    };
    return {
      url: `${base}/api/v1/services/embeddings/text-embedding/text-embedding`,
      method: 'POST',
      headers: headers(call),
      body: JSON.stringify(body),
    };
  }
  if (call.mode === 'images') {
    // Image synthesis is asynchronous only: submit a task, then poll it (images.ts).
    return {
      url: `${base}/api/v1/services/aigc/text2image/image-synthesis`,
      method: 'POST',
      headers: { ...headers(call), 'x-dashscope-async': 'enable' },
      body: JSON.stringify(imageBody(call)),
    };
  }
  const request = readChatRequest(call);
  const service = isAliMultimodal(request) ? 'multimodal-generation' : 'text-generation';
  return {
    url: `${base}/api/v1/services/aigc/${service}/generation`,
    method: 'POST',
    headers: headers(call),
    body: JSON.stringify(aliChatBody(request)),
  };
}

/** One poll of an image task. It goes to the channel's base URL (one-api hard-coded dashscope.aliyuncs.com). */
export function aliTaskRequest(call: RelayCall, taskId: string): UpstreamRequest {
  return {
    url: `${call.channel.baseUrl}/api/v1/tasks/${encodeURIComponent(taskId)}`,
    method: 'GET',
    headers: { authorization: `Bearer ${aliKey(call)}`, accept: 'application/json' },
  };
}
