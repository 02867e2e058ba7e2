import type { RelayCall, RelayResult, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import type { Usage } from '../../adaptor.js';
import { chatCompletion, chatResult, completionId, toolCallId } from '../openai-kit/chat-answer.js';
import type { ChatToolCall } from '../openai-kit/chat-types.js';
import { bodyExcerpt, isObject, parseJson } from '../openai-kit/json.js';
import { usageOf } from '../openai-kit/usage.js';
import type { CohereChatResponse, CohereToolCall } from './types.js';

const finishReasons: Record<string, string> = {
  COMPLETE: 'stop',
  STOP_SEQUENCE: 'stop',
  MAX_TOKENS: 'length',
  ERROR_TOXIC: 'content_filter',
  TOOL_CALL: 'tool_calls',
};

/** Cohere's finish_reason in OpenAI's words; an answer with tool calls finishes with tool_calls. */
export const cohereFinishReason = (reason: string | undefined, calledTools: boolean) =>
  calledTools ? 'tool_calls' : (finishReasons[reason ?? 'COMPLETE'] ?? (reason ?? 'stop').toLowerCase());

/** Token counts from `meta.tokens` (the real counts), else `meta.billed_units`. */
export function cohereUsage(response: CohereChatResponse | undefined): Usage {
  const tokens = response?.meta?.tokens ?? response?.meta?.billed_units;
  return usageOf(tokens?.input_tokens ?? 0, tokens?.output_tokens ?? 0);
}

export const cohereToolCalls = (calls: CohereToolCall[] | undefined): ChatToolCall[] =>
  (calls ?? []).map((call) => ({
    id: toolCallId(),
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.parameters ?? {}) },
  }));

/** Converts a whole v1 chat answer; a 200 body without `response_id` is an error (one-api's rule). */
export function readCohereResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const parsed = parseJson(response.body);
  if (!isObject(parsed)) throw unreadableAnswer(`not a JSON object: ${bodyExcerpt(response.body)}`);
  if (typeof parsed.response_id !== 'string')
    throw new UpstreamError({ ...readErrorBody(500, response.body), status: 500 });
  const answer = parsed as unknown as CohereChatResponse;
  const toolCalls = cohereToolCalls(answer.tool_calls);
  return chatResult(
    chatCompletion({
      id: completionId(answer.response_id),
      model: call.model,
      message: {
        role: 'assistant',
        content: answer.text === '' && toolCalls.length > 0 ? null : answer.text,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
      finishReason: cohereFinishReason(answer.finish_reason, toolCalls.length > 0),
      usage: cohereUsage(answer),
    }),
  );
}
