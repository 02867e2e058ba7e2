import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse, Usage } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import { chatCompletion, chatResult, completionId } from '../openai-kit/chat-answer.js';
import type { ChatCompletion, ChatToolCall } from '../openai-kit/chat-types.js';
import { bodyExcerpt, isObject, parseJson, stringOf } from '../openai-kit/json.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import { countOf, usageOf, withUsageParts } from '../openai-kit/usage.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import { forwardsClaudeAnswer, type ChatCompletionWithClaude } from './claude-original.js';
import { answerToolName, answersThroughTool } from './request.js';
import type { ClaudeResponse, ClaudeUsage } from './types.js';

const finishReasons: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
  pause_turn: 'stop',
};

/** The finish reason of an answer: `tool_calls` only when the client's own tools were called (not the answer tool). */
export const answerFinishReason = (reason: string | null, calledClientTools: boolean): string | null =>
  reason === 'tool_calls' && !calledClientTools ? 'stop' : reason;

/** Claude's `stop_reason` in OpenAI's words (unknown values pass through). */
export const claudeFinishReason = (reason: string | null | undefined): string | null =>
  reason ? (finishReasons[reason] ?? reason) : null;

/**
 * Claude usage (https://docs.claude.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance):
 * every input token counts as prompt, cache writes and reads included (providers.md §4.7's "total input"),
 * with the reads, the writes and their 1-hour part (`cache_creation`) and the server's web searches apart
 * for their own prices.
 */
export function claudeUsage(usage: ClaudeUsage | undefined): Usage {
  const read = countOf(usage?.cache_read_input_tokens);
  const byTtl = usage?.cache_creation;
  const written =
    countOf(usage?.cache_creation_input_tokens) ||
    countOf(byTtl?.ephemeral_5m_input_tokens) + countOf(byTtl?.ephemeral_1h_input_tokens);
  const prompt = countOf(usage?.input_tokens) + written + read;
  return withUsageParts(usageOf(prompt, countOf(usage?.output_tokens)), {
    cached: read,
    cacheWritten: written,
    cacheWritten1h: byTtl?.ephemeral_1h_input_tokens,
    webSearches: usage?.server_tool_use?.web_search_requests,
  });
}

/**
 * A Messages API answer as an OpenAI chat completion for the front model name. With `throughAnswerTool` (the
 * request's response_format went as the answer tool, see `answerTool`) that tool's input is the content, and
 * an answer that called no other tool finished with `stop`.
 */
export function claudeToChatCompletion(
  response: ClaudeResponse,
  model: string,
  throughAnswerTool = false,
): ChatCompletion {
  let text = '';
  let reasoning = '';
  const toolCalls: ChatToolCall[] = [];
  for (const block of response.content ?? []) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') reasoning += block.thinking;
    else if (block.type === 'tool_use' && throughAnswerTool && block.name === answerToolName)
      text += JSON.stringify(block.input ?? {});
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
    finishReason: answerFinishReason(claudeFinishReason(response.stop_reason), toolCalls.length > 0) ?? 'stop',
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
  const completion: ChatCompletionWithClaude = claudeToChatCompletion(
    response,
    call.model,
    answersThroughTool(readChatRequest(call)),
  );
  if (forwardsClaudeAnswer(call)) completion.claude_message = response;
  return chatResult(completion);
}

/** Reads a successful non-stream Messages answer. */
export function readAnthropicResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  return claudeResult(parseClaudeResponse(response.body, response.status), call);
}
