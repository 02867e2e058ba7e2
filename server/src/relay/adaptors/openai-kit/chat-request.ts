import type { RelayCall } from '../../adaptor.js';
import type { ChatContentPart, ChatFunction, ChatMessage, ChatRequest, ChatTool } from './chat-types.js';
import { isObject } from './json.js';

type Json = Record<string, unknown>;

const numberOrUndefined = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The JSON body of a call as an object ({} for binary bodies). */
export function bodyOf(call: RelayCall): Json {
  return call.body.kind === 'json' ? call.body.value : {};
}

/**
 * The client's chat request as the converters read it, with the upstream (mapped) model and the numbers
 * checked for type. The relay core has already checked that `messages` is present; anything missing here is
 * tolerated, not trusted. Messages keep their identity (the Anthropic front's originals ride on them).
 */
export function readChatRequest(call: RelayCall): ChatRequest {
  const body = bodyOf(call);
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  return {
    ...(body as Partial<ChatRequest>),
    model: call.model,
    messages: messages.map((message) =>
      typeof message.role === 'string' ? message : { ...message, role: String(message.role ?? 'user') },
    ) as unknown as ChatMessage[],
    stream: call.stream,
    temperature: numberOrUndefined(body.temperature),
    top_p: numberOrUndefined(body.top_p),
    top_k: numberOrUndefined(body.top_k),
    n: numberOrUndefined(body.n),
    max_tokens: numberOrUndefined(body.max_tokens) ?? numberOrUndefined(body.max_completion_tokens),
    frequency_penalty: numberOrUndefined(body.frequency_penalty),
    presence_penalty: numberOrUndefined(body.presence_penalty),
    seed: numberOrUndefined(body.seed),
    user: typeof body.user === 'string' ? body.user : undefined,
    tools: Array.isArray(body.tools) ? (body.tools.filter(isObject) as unknown as ChatTool[]) : undefined,
    functions: Array.isArray(body.functions)
      ? (body.functions.filter(isObject) as unknown as ChatFunction[])
      : undefined,
  };
}

/** The text of a message content: a string, or its text parts joined (image parts skipped). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** Messages with array content flattened to text, for vendors that take only strings. */
export function flattenMessages(messages: unknown): unknown {
  if (!Array.isArray(messages)) return messages;
  return messages.map((message) =>
    isObject(message) && Array.isArray(message.content)
      ? { ...message, content: messageText(message.content) }
      : message,
  );
}

/** The parts of a message content, a string becoming one text part. */
export function messageParts(content: ChatMessage['content']): ChatContentPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

/** `tools`, or the legacy `functions` turned into tools. */
export function requestTools(request: ChatRequest): ChatTool[] {
  if (Array.isArray(request.tools) && request.tools.length > 0) return request.tools;
  if (Array.isArray(request.functions)) return request.functions.map((fn) => ({ type: 'function', function: fn }));
  return [];
}

/** The functions a request offers, from `tools` or the legacy `functions`. */
export function offeredFunctions(request: ChatRequest): ChatFunction[] {
  return requestTools(request)
    .map((tool) => tool.function)
    .filter((fn) => isObject(fn) && typeof fn.name === 'string');
}

/** `max_completion_tokens` wins over the older `max_tokens`; undefined when neither is a positive number. */
export function maxOutputTokens(request: {
  max_completion_tokens?: unknown;
  max_tokens?: unknown;
}): number | undefined {
  const value = request.max_completion_tokens ?? request.max_tokens;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/** `stop` as a list. */
export function stopList(stop: ChatRequest['stop']): string[] | undefined {
  if (typeof stop === 'string') return [stop];
  return Array.isArray(stop) && stop.length > 0 ? stop : undefined;
}

/** A `data:` URL split into its media type and base64 payload; undefined for any other URL. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] || 'application/octet-stream', data: match[2] ?? '' };
}

/** Parses tool-call arguments; a broken or empty string becomes `{}` (upstreams want an object). */
export function parseArguments(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The inputs of an embeddings call as a list of strings (`input` may be one string or a list). */
export function embeddingInputs(call: RelayCall): string[] {
  const input = bodyOf(call).input;
  if (typeof input === 'string') return [input];
  if (Array.isArray(input)) return input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [];
}
