import { isObject, messageText } from './openai-chat.js';

/** Messages with array content flattened to text, for vendors that take only strings. */
export function flattenMessages(messages: unknown): unknown {
  if (!Array.isArray(messages)) return messages;
  return messages.map((message) =>
    isObject(message) && Array.isArray(message.content)
      ? { ...message, content: messageText(message.content) }
      : message,
  );
}
