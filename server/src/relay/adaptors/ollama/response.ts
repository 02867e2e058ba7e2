import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { UpstreamError, unreadableAnswer } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import { chatCompletion, chatResult, toolCallId, usageOf } from '../chat-shapes/chat-answer.js';
import type { ChatToolCall } from '../chat-shapes/openai-chat.types.js';
import { embeddingsResult } from '../chat-shapes/embeddings-answer.js';
import { bodyExcerpt, errorBody, isRecord, parseJsonBody, stringOf } from '../chat-shapes/upstream-errors.js';
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
  const parsed = parseJsonBody(response.body);
  if (isRecord(parsed) && stringOf(parsed.error))
    return errorBody(response.status, stringOf(parsed.error), 'ollama_error', String(response.status));
  return readErrorBody(response.status, response.body);
}

/** Converts an `/api/chat` answer (stream false) or an `/api/embed` answer. */
export function readOllamaResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  const parsed = parseJsonBody(response.body);
  if (!isRecord(parsed)) throw unreadableAnswer(`not a JSON object: ${bodyExcerpt(response.body)}`);
  if (stringOf(parsed.error)) throw new UpstreamError(errorBody(500, stringOf(parsed.error), 'ollama_error'));
  if (call.mode === 'embeddings') {
    const answer = parsed as unknown as OllamaEmbedResponse;
    return embeddingsResult(call, answer.embeddings ?? [], answer.prompt_eval_count);
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
