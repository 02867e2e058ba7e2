import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse, Usage } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import { chatCompletion, chatResult, completionId } from '../openai-kit/chat-answer.js';
import type { ChatCompletion, ChatToolCall } from '../openai-kit/chat-types.js';
import { bodyExcerpt, isObject, parseJson, stringOf } from '../openai-kit/json.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import { forwardsClaudeAnswer, type ChatCompletionWithClaude } from './claude-original.js';
import type { ClaudeResponse, ClaudeUsage } from './types.js';

const finishReasons: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
  pause_turn: 'stop',
};

/** Claude's `stop_reason` in OpenAI's words (unknown values pass through). */
export const claudeFinishReason = (reason: string | null | undefined): string | null =>
  reason ? (finishReasons[reason] ?? reason) : null;

/**
 * Claude usage: every input token counts as prompt, cache writes and reads included (providers.md §4.7's
 * "total input"), since the gateway has no separate cache price (docs/decisions/0012).
 */
export function claudeUsage(usage: ClaudeUsage | undefined): Usage {
  const prompt =
    (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);
  const counts = withPromptCache(usageOf(prompt, usage?.output_tokens ?? 0), usage);
  return withWebSearches(counts, usage?.server_tool_use?.web_search_requests);
}

/** `usage` with Claude's cache reads (in OpenAI's `prompt_tokens_details`) and writes, when it reported any. */
export function withPromptCache(usage: Usage, claude: ClaudeUsage | undefined): Usage {
  const read = claude?.cache_read_input_tokens ?? 0;
  const written = claude?.cache_creation_input_tokens ?? 0;
  if (read > 0) usage.prompt_tokens_details = { cached_tokens: read };
  if (written > 0) usage.cache_creation_input_tokens = written;
  return usage;
}

/** `usage` with the server's web searches, when it ran any. */
export function withWebSearches(usage: Usage, searches: number | undefined): Usage {
  return typeof searches === 'number' && searches > 0 ? { ...usage, web_search_requests: searches } : usage;
}

/** A Messages API answer as an OpenAI chat completion for the front model name. */
export function claudeToChatCompletion(response: ClaudeResponse, model: string): ChatCompletion {
  let text = '';
  let reasoning = '';
  const toolCalls: ChatToolCall[] = [];
  for (const block of response.content ?? []) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') reasoning += block.thinking;
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  return chatCompletion({
    id: completionId(response.id),
    model,
    message: {
      role: 'assistant',
      content: text === '' && toolCalls.length > 0 ? null : text,
      ...(reasoning ? { reasoning_content: reasoning } : {}),
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    finishReason: claudeFinishReason(response.stop_reason) ?? 'stop',
    usage: claudeUsage(response.usage),
  });
}

/** A Claude error object (`{type:"error",error:{type,message}}`) as an OpenAI error; undefined if the body is not one. */
export function claudeErrorBody(status: number, parsed: unknown): UpstreamErrorBody | undefined {
  if (!isObject(parsed) || !isObject(parsed.error)) return undefined;
  const message = stringOf(parsed.error.message);
  const type = stringOf(parsed.error.type);
  if (!message && !type) return undefined;
  return errorBody(status, message || type, type || 'upstream_error', type || null);
}

/** Reads a non-2xx Anthropic answer: its error type becomes both `type` and `code`, its message is kept. */
export function readAnthropicError(response: UpstreamResponse): UpstreamErrorBody {
  return claudeErrorBody(response.status, parseJson(response.body)) ?? readErrorBody(response.status, response.body);
}

/** Parses a whole Messages answer, throwing when it is an error in disguise or unreadable. */
export function parseClaudeResponse(body: Buffer, status: number): ClaudeResponse {
  const parsed = parseJson(body);
  if (!isObject(parsed)) throw unreadableAnswer(`not a JSON object: ${bodyExcerpt(body)}`);
  if (parsed.type === 'error') {
    const error = claudeErrorBody(status >= 400 ? status : 500, parsed);
    if (error) throw new UpstreamError(error);
  }
  if (!Array.isArray(parsed.content)) throw unreadableAnswer(`no content in Claude answer: ${bodyExcerpt(body)}`);
  return parsed as unknown as ClaudeResponse;
}

/**
 * A Messages answer as the relay result. For the Anthropic front the message itself rides along, so that its
 * client gets thinking signatures, redacted thinking and cache usage as Claude sent them.
 */
export function claudeResult(response: ClaudeResponse, call: RelayCall): RelayResult {
  const completion: ChatCompletionWithClaude = claudeToChatCompletion(response, call.model);
  if (forwardsClaudeAnswer(call)) completion.claude_message = response;
  return chatResult(completion);
}

/** Reads a successful non-stream Messages answer. */
export function readAnthropicResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  return claudeResult(parseClaudeResponse(response.body, response.status), call);
}
