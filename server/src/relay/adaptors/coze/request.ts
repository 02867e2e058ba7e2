import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { messageParts, messageText, readChatRequest } from '../openai-kit/chat-request.js';
import type { ChatMessage, ChatRequest } from '../openai-kit/chat-types.js';
import { requiredKey } from '../openai-kit/upstream-errors.js';
import type { CozeChatRequest, CozeMessage } from './types.js';

/** Coze requires a user id; channels without config user_id use this one. */
export const defaultCozeUser = 'modelgate';

/** The bot id of a model name (`bot-7365…` or `7365…`). */
export const cozeBotId = (model: string) => model.replace(/^bot-/, '');

/** A message as Coze content: plain text, or an object_string list when it carries images. */
function toCozeMessage(message: ChatMessage): CozeMessage {
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  const type = role === 'assistant' ? 'answer' : 'question';
  const parts = messageParts(message.content);
  if (!parts.some((part) => part.type === 'image_url'))
    return { role, type, content: messageText(message.content), content_type: 'text' };
  const items = parts.flatMap((part): Record<string, string>[] => {
    if (part.type === 'text' && typeof part.text === 'string') return [{ type: 'text', text: part.text }];
    const url = (part as { image_url?: { url?: unknown } }).image_url?.url;
    return typeof url === 'string' ? [{ type: 'image', file_url: url }] : [];
  });
  return { role, type, content: JSON.stringify(items), content_type: 'object_string' };
}

/**
 * The OpenAI chat request as a v3 chat body. Coze has no system role: system text goes first as a user
 * message. The call always streams (a whole answer is gathered from the stream), which avoids v3's
 * create-then-poll for non-stream chats and needs no saved history.
 */
export function toCozeRequest(request: ChatRequest, userId: string): CozeChatRequest {
  return {
    bot_id: cozeBotId(request.model),
    user_id: userId,
    stream: true,
    auto_save_history: false,
    additional_messages: request.messages.filter((message) => message.role !== 'tool').map(toCozeMessage),
  };
}

/** `POST {base}/v3/chat` with the personal access token as Bearer. */
export function buildCozeRequest(call: RelayCall): UpstreamRequest {
  const key = requiredKey(call.channel.key, 'Coze', 'a personal access token');
  const userId = call.channel.config.user_id?.trim() || defaultCozeUser;
  return {
    url: `${call.channel.baseUrl}/v3/chat`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${key}` },
    body: JSON.stringify(toCozeRequest(readChatRequest(call), userId)),
  };
}
