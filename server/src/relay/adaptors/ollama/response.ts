import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import { chatCompletion, chatResult, toolCallId } from '../openai-kit/chat-answer.js';
import type { ChatToolCall } from '../openai-kit/chat-types.js';
import { embeddingsResult } from '../openai-kit/embeddings-answer.js';
import { bodyExcerpt, isObject, parseJson, stringOf } from '../openai-kit/json.js';
import { errorBody } from '../openai-kit/upstream-errors.js';
import { usageOf } from '../openai-kit/usage.js';
import type { OllamaChatResponse, OllamaEmbedResponse, OllamaToolCall } from './types.js';

/** Ollama's done_reason in OpenAI's words. */
export const ollamaFinishReason = (reason: string | undefined, calledTools: boolean) =>
  reason === 'length' ? 'length' : calledTools ? 'tool_calls' : 'stop';

/** Ollama tool calls (arguments as objects, no ids) in OpenAI's shape. */
export const ollamaToolCalls = (calls: OllamaToolCall[] | undefined): ChatToolCall[] =>
  (calls ?? []).map((call) => ({
    id: toolCallId(),
    type: 'function',
    function: { name: call.function.name, arguments: JSON.stringify(call.function.arguments ?? {}) },
  }));

/** Ollama's `{"error": "…"}` as an OpenAI error. */
export function readOllamaError(response: UpstreamResponse): UpstreamErrorBody {
  const parsed = parseJson(response.body);
  if (isObject(parsed) && stringOf(parsed.error))
    return errorBody(response.status, stringOf(parsed.error), 'ollama_error', String(response.status));
  return readErrorBody(response.status, response.body);
}

/** Converts an `/api/chat` answer (stream false) or an `/api/embed` answer. */
export function readOllamaResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const parsed = parseJson(response.body);
  if (!isObject(parsed)) throw unreadableAnswer(`not a JSON object: ${bodyExcerpt(response.body)}`);
  if (stringOf(parsed.error)) throw new UpstreamError(errorBody(500, stringOf(parsed.error), 'ollama_error'));
  if (call.mode === 'embeddings') {
    const answer = parsed as unknown as OllamaEmbedResponse;
    return embeddingsResult(call, answer.embeddings ?? [], usageOf(answer.prompt_eval_count ?? 0, 0));
  }
  const answer = parsed as unknown as OllamaChatResponse;
  const toolCalls = ollamaToolCalls(answer.message?.tool_calls);
  const content = answer.message?.content ?? '';
  return chatResult(
    chatCompletion({
      model: call.model,
      message: {
        role: 'assistant',
        content: content === '' && toolCalls.length > 0 ? null : content,
        ...(answer.message?.thinking ? { reasoning_content: answer.message.thinking } : {}),
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
      finishReason: ollamaFinishReason(answer.done_reason, toolCalls.length > 0),
      usage: usageOf(answer.prompt_eval_count ?? 0, answer.eval_count ?? 0),
    }),
  );
}
