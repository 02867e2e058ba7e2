import type { RelayCall } from '../../adaptor.js';
import type { ChatMessage, ChatRequest } from '../openai-kit/chat-types.js';

/**
 * What the Responses front keeps beside the chat request it converted, so that a channel speaking OpenAI's
 * Responses API gets the request as the client sent it (built-in tools, reasoning items, `include` …) instead
 * of the conversion.
 *
 * It rides on the chat request under a symbol key, as the Anthropic front's original does (see
 * `anthropic/claude-original.ts`): the pipeline's copies of the body keep it, JSON drops it, so a chat upstream
 * never sees it and no client can send it.
 */
const responsesOriginal = Symbol('responses-original');

export interface ResponsesOriginal {
  /** The Responses request for the upstream: the conversation expanded, `store: false`, no previous id. */
  request: Record<string, unknown>;
  /**
   * The chat messages of the conversion. When the pipeline replaced them (a channel's own system prompt), the
   * new first system message becomes the upstream's `instructions`.
   */
  messages: ChatMessage[];
  /** The channel that last got the Responses request itself: nothing was dropped for that channel's answer. */
  sentToChannel?: number;
}

type Marked = { [responsesOriginal]?: ResponsesOriginal };

/** `chat` marked with the Responses request it was converted from (the same object). */
export function withResponsesOriginal(chat: ChatRequest, original: ResponsesOriginal): ChatRequest {
  (chat as Marked)[responsesOriginal] = original;
  return chat;
}

/** The Responses original of a call's body, when the call came through the Responses front. */
export function responsesOriginalOf(call: RelayCall): ResponsesOriginal | undefined {
  return call.body.kind === 'json' ? (call.body.value as Marked)[responsesOriginal] : undefined;
}
