import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { OptionStore } from '../../domain/option/option.store.js';

/**
 * A conversation the relay keeps on one channel (decision 0023). The keys are hashes scoped to the token and
 * the model asked for: another user's id never steers this token, and a model's prompt cache is its own.
 */
export interface RelaySession {
  /** Where the conversation's channel is looked up and recorded; absent when only `responseKey` is kept. */
  key?: string;
  /** The id of the response this call produces, kept so that its continuation finds the same channel. */
  responseKey?: string;
  /** The StickySessionTtlSeconds option when the call arrived: each lookup extends the session by this much. */
  ttlSeconds: number;
  /** The channel the session was on when the call arrived (set by the attempts, read by the log). */
  channelId?: number;
}

/** What a request may carry that names its conversation, beyond the headers. */
export interface SessionClues {
  /** OpenAI's `prompt_cache_key` (Codex sends its session id there). */
  promptCacheKey?: unknown;
  /** The Responses API's `previous_response_id`. */
  previousResponseId?: unknown;
  /** OpenAI's `user`, or Anthropic's `metadata.user_id` (the Anthropic front puts it there). */
  user?: unknown;
  /** The id the Responses front gives the response it is about to produce, when it stores it. */
  responseId?: string;
}

/** Longer ids are no session id a client sends; they are ignored rather than hashed. */
const longestIdChars = 512;

const usable = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && value.length <= longestIdChars;

const headerOf = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return usable(value) ? value : undefined;
};

/**
 * The conversation's id, first match wins: Claude Code's session header, Codex's session header or
 * `prompt_cache_key`, the response it continues, our own header, then the end user's id. Response ids get a
 * namespace of their own: they are recorded by the gateway, not chosen by the client.
 */
function conversationId(headers: IncomingHttpHeaders, clues: SessionClues): string | undefined {
  const id =
    headerOf(headers, 'x-claude-code-session-id') ??
    headerOf(headers, 'session_id') ??
    (usable(clues.promptCacheKey) ? clues.promptCacheKey : undefined);
  if (id) return `session:${id}`;
  if (usable(clues.previousResponseId)) return `response:${clues.previousResponseId}`;
  const own = headerOf(headers, 'x-modelgate-session') ?? (usable(clues.user) ? clues.user : undefined);
  return own ? `session:${own}` : undefined;
}

const keyOf = (tokenId: number, model: string, id: string) =>
  createHash('sha256').update(`${tokenId}\n${model}\n${id}`).digest('base64url').slice(0, 24);

/**
 * The session of a chat call, or undefined when it names none or sticky routing is off (StickySessionTtlSeconds
 * 0). A call without any id costs a few property reads: no hash, no store.
 */
export function relaySessionOf(
  options: OptionStore,
  tokenId: number,
  model: string,
  headers: IncomingHttpHeaders,
  clues: SessionClues,
): RelaySession | undefined {
  const ttlSeconds = Math.floor(options.number('StickySessionTtlSeconds'));
  if (!(ttlSeconds > 0)) return undefined;
  const id = conversationId(headers, clues);
  if (!id && !clues.responseId) return undefined;
  return {
    ttlSeconds,
    ...(id ? { key: keyOf(tokenId, model, id) } : {}),
    ...(clues.responseId ? { responseKey: keyOf(tokenId, model, `response:${clues.responseId}`) } : {}),
  };
}
