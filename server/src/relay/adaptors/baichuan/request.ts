import type { RelayCall } from '../../adaptor.js';
import { flattenMessages } from '../openai-kit/chat-request.js';
import { withStreamUsage } from '../openai-kit/openai-compatible.js';

/** The chat fields Baichuan accepts; it refuses unknown ones, so the body is rebuilt (as one-api does). */
const chatFields = [
  'model',
  'messages',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'max_tokens',
  'stop',
  'tools',
  'tool_choice',
  'with_search_enhance',
  'knowledge_base',
];

/** Keeps Baichuan's fields, flattens content parts to text and asks for usage in streams. */
export function baichuanBody(body: Record<string, unknown>, call: RelayCall): Record<string, unknown> {
  if (call.mode !== 'chat') return body;
  const kept: Record<string, unknown> = {};
  for (const field of chatFields) if (body[field] !== undefined) kept[field] = body[field];
  kept.messages = flattenMessages(kept.messages);
  return withStreamUsage(kept, call);
}
