import { parseArguments } from '../../adaptors/openai-kit/chat-request.js';
import type { ChatCompletion, ChatToolCall, ChatUsage } from '../../adaptors/openai-kit/chat-types.js';
import { isObject } from '../../adaptors/openai-kit/json.js';
import type { GeminiPart, GeminiResponse, GeminiUsageMetadata } from '../../adaptors/gemini/types.js';

/** OpenAI's finish_reason in Gemini's words (a tool call ends with STOP, as Gemini's own do). */
export function geminiFinishReason(reason: string | null | undefined): string {
  if (reason === 'length') return 'MAX_TOKENS';
  if (reason === 'content_filter') return 'SAFETY';
  return 'STOP';
}

/** A tool call as a functionCall part; the call's id goes along so that the client's answer can name it. */
export const functionCallPart = (call: Pick<ChatToolCall, 'id' | 'function'>): GeminiPart => ({
  functionCall: { id: call.id, name: call.function.name, args: parseArguments(call.function.arguments) },
});

/**
 * OpenAI usage as usageMetadata: reasoning tokens are Gemini's thoughts (not part of candidatesTokenCount),
 * cached prompt tokens its cachedContentTokenCount (part of promptTokenCount, as in OpenAI's count).
 */
export function usageMetadataOf(usage: ChatUsage): GeminiUsageMetadata {
  const details = usage as ChatUsage & {
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
  };
  const thoughts = details.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = details.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: usage.completion_tokens - thoughts,
    totalTokenCount: usage.total_tokens,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
  };
}

/** A whole chat answer as a GenerateContentResponse: one candidate per choice, reasoning as thought parts. */
export function chatCompletionToGemini(completion: ChatCompletion, model: string): GeminiResponse {
  return {
    candidates: completion.choices.map((choice) => {
      const parts: GeminiPart[] = [];
      const { reasoning_content: reasoning, content, tool_calls: toolCalls } = choice.message;
      if (reasoning) parts.push({ text: reasoning, thought: true });
      if (content) parts.push({ text: content });
      for (const call of toolCalls ?? []) parts.push(functionCallPart(call));
      if (parts.length === 0) parts.push({ text: '' });
      return {
        content: { role: 'model', parts },
        finishReason: geminiFinishReason(choice.finish_reason),
        index: choice.index,
      };
    }),
    ...(isObject(completion.usage) ? { usageMetadata: usageMetadataOf(completion.usage) } : {}),
    modelVersion: model,
    responseId: completion.id,
  };
}
