import type { RelayCall } from '../../adaptor.js';
import type { ChatMessage } from '../openai-kit/chat-types.js';

/**
 * What the Responses front keeps beside the chat request it converted, so that a channel speaking OpenAI's
 * Responses API gets the request as the client sent it (built-in tools, reasoning items, `include` …) instead
 * of the conversion. It is the job's native request (RelayJob.native), which only such a channel's calls carry.
 */

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

/** The Responses original of a call on the native road. */
export const responsesOriginalOf = (call: RelayCall): ResponsesOriginal | undefined =>
  call.native?.protocol === 'responses' ? call.native.original : undefined;
