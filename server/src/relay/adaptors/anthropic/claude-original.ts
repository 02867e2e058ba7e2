import type { RelayCall } from '../../adaptor.js';
import type { ChatCompletion, ChatMessage, ChatRequest } from '../openai-kit/chat-types.js';
import type { ClaudeContentBlock, ClaudeRequest, ClaudeResponse, ClaudeToolChoice } from './types.js';

/**
 * What the Anthropic front keeps of a Messages request beyond OpenAI's shapes, so that a Claude upstream
 * (Anthropic, Vertex, Bedrock) receives it as the client sent it: cache_control markers, thinking blocks with
 * their signatures, the `thinking` parameter (docs/decisions/0012).
 *
 * It rides on the OpenAI-shaped objects the front builds under this symbol key. Object spreads keep it (the
 * pipeline's copy of the body, `readChatRequest`), JSON drops it: an OpenAI-protocol upstream never receives
 * it, whether the client's bytes are forwarded or the body is re-serialised, and no client can send it. The
 * request's original is also the job's native request (RelayJob.native): whether a call takes the native road
 * is read from the call (RelayCall.native), never from this key; the key only carries the blocks and fields
 * the Claude request is rebuilt from.
 */
export const claudeOriginal = Symbol('claude-original');

/**
 * On the request: marks it as the Anthropic front's, with its top-level fields OpenAI has no place for and
 * the client's Anthropic headers (already checked to be plain tokens by the front).
 */
export interface ClaudeRequestOriginal {
  thinking?: ClaudeRequest['thinking'];
  /**
   * The client's top-level fields OpenAI's request has no place for (`output_config`, `context_management`,
   * fields newer than this gateway …): Anthropic channels get them as sent.
   */
  fields?: Record<string, unknown>;
  /**
   * The channel a Claude adaptor last built an upstream request from it for: that channel's answer carries
   * everything the client sent, and the front reports nothing dropped for it.
   */
  sentToChannel?: number;
  /** The client's `anthropic-beta` flags (Claude Code: `interleaved-thinking-2025-05-14`, …). */
  betas?: string[];
  /** The client's `anthropic-version`. */
  version?: string;
  /**
   * The tools and tool_choice as sent, when some are server tools (web search …): OpenAI has no such tools,
   * so the OpenAI-shaped request leaves them out and only a Claude upstream gets them.
   */
  tools?: ClaudeRequest['tools'];
  toolChoice?: ClaudeToolChoice;
  /**
   * The request as its client sent it: Anthropic's own API is sent this (the model, the output limit and the
   * thinking budget set anew), not a body rebuilt from the conversion (see `clientRequestAsSent`).
   */
  sent?: ClaudeRequestAsSent;
}

/** The Anthropic front's request as it arrived, for the channels that speak it. */
export interface ClaudeRequestAsSent {
  /** The parsed body (shared by every attempt: never changed). */
  body: ClaudeRequest;
  /** Its bytes, sent unchanged when nothing in the body has to change. */
  bytes: Buffer;
  /**
   * The converted request's messages: while the prepared call still holds this very array, no channel system
   * prompt was forced into it (the pipeline copies the array to do that).
   */
  messages: ChatMessage[];
}

/**
 * On a message: the Claude blocks it was made from, and the content the front gave it. The blocks stand in for
 * the message only while its content is still that one (the pipeline replaces a system message's content
 * when the channel forces its own system prompt).
 */
export interface ClaudeMessageOriginal {
  content: ChatMessage['content'];
  blocks: ClaudeContentBlock[];
  /** A `system` turn inside `messages`: Anthropic channels get it in its place, not in the top-level system. */
  inPlace?: boolean;
  /** The turn's fields beyond role and content (Claude Code's per-turn `output_config`), for Anthropic channels. */
  fields?: Record<string, unknown>;
}

type Marked<Original> = { [claudeOriginal]?: Original };

/** `target` with its Claude original attached (the same object). */
export function withClaudeOriginal<Target extends object, Original>(target: Target, original: Original): Target {
  (target as Marked<Original>)[claudeOriginal] = original;
  return target;
}

/** The Claude original attached to an object by the Anthropic front, if any. */
export function claudeOriginalOf<Original>(target: object): Original | undefined {
  return (target as Marked<Original>)[claudeOriginal];
}

/** The Anthropic front's own data on a request, if the request came through it. */
export const claudeRequestOriginal = (request: ChatRequest): ClaudeRequestOriginal | undefined =>
  claudeOriginalOf<ClaudeRequestOriginal>(request);

/** The Claude original of a message, while its content is still the front's. */
export function unchangedOriginal(message: ChatMessage): ClaudeMessageOriginal | undefined {
  const original = claudeOriginalOf<ClaudeMessageOriginal>(message);
  return original && original.content === message.content ? original : undefined;
}

/**
 * Whether this call takes the native road from the Anthropic front: a Claude upstream then hands its whole
 * answer on beside the OpenAI conversion, for the front to send back unchanged (a stream is forwarded as is).
 */
export const forwardsClaudeAnswer = (call: RelayCall): boolean => call.native?.protocol === 'anthropic';

/**
 * The OpenAI answer of a front call with the Claude message it was converted from. Only the Anthropic front
 * reads it (the JSON goes nowhere else); OpenAI clients never ask for it, so never see it.
 */
export type ChatCompletionWithClaude = ChatCompletion & { claude_message?: ClaudeResponse };
