import type { RelayCall } from '../../adaptor.js';
import type { ChatContentPart, ChatMessage, ChatRequest, ChatTool } from './openai-chat.types.js';

/**
 * The client's chat request as the converters read it, with the upstream (mapped) model. The relay core has
 * already checked that `messages` is present; anything missing here is tolerated, not trusted.
 */
export function readChatRequest(call: RelayCall): ChatRequest {
  const value = call.body.kind === 'json' ? call.body.value : {};
  const messages = Array.isArray(value.messages) ? (value.messages as ChatMessage[]) : [];
  return { ...(value as Partial<ChatRequest>), model: call.model, messages, stream: call.stream };
}

/** The text of a message content: a string, or its text parts joined (image parts skipped). */
export function messageText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
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

/** `max_completion_tokens` wins over the older `max_tokens`; undefined when neither is a positive number. */
export function maxOutputTokens(request: ChatRequest): number | undefined {
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
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
