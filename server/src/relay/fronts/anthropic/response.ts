import { randomHex } from '../../../lib/random.js';
import type { ChatCompletionWithClaude } from '../../adaptors/anthropic/claude-original.js';
import type { ClaudeContentBlock, ClaudeResponse, ClaudeUsage } from '../../adaptors/anthropic/types.js';
import type { Usage } from '../../adaptor.js';
import { parseArguments } from '../../adaptors/openai-kit/chat-request.js';
import { isObject } from '../../adaptors/openai-kit/json.js';

const stopReasons: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

/** An OpenAI finish_reason in Anthropic's words. */
export const anthropicStopReason = (finishReason: string | null | undefined): string =>
  stopReasons[finishReason ?? 'stop'] ?? 'end_turn';

/** OpenAI's usage with the prompt's cached part (`prompt_tokens_details.cached_tokens`). */
export type OpenAIUsage = Partial<Usage> & { prompt_tokens_details?: { cached_tokens?: unknown } | null };

/**
 * An OpenAI-protocol upstream's usage in Anthropic's words: the prompt's cached tokens are reported as
 * `cache_read_input_tokens` and, as Anthropic does, not counted again in `input_tokens`. Billing still reads
 * the upstream's own usage (the whole prompt); this is only what the Anthropic client is told.
 */
export function anthropicUsage(usage: OpenAIUsage | undefined): ClaudeUsage {
  const prompt = usage?.prompt_tokens ?? 0;
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  const result: ClaudeUsage = { input_tokens: prompt, output_tokens: usage?.completion_tokens ?? 0 };
  if (typeof cached !== 'number' || !Number.isFinite(cached) || cached < 0) return result;
  const cacheRead = Math.min(cached, prompt);
  return { ...result, input_tokens: prompt - cacheRead, cache_read_input_tokens: cacheRead };
}

/** A message id in Anthropic's style. */
export const anthropicMessageId = () => `msg_${randomHex(12)}`;

/**
 * An OpenAI chat completion (first choice) as an Anthropic message. A Claude upstream's answer carries its
 * message (`claude_message`): that is sent back as it came, under the client's model name.
 */
export function chatCompletionToAnthropic(completion: ChatCompletionWithClaude, model: string): ClaudeResponse {
  const claude = completion.claude_message;
  if (isObject(claude) && Array.isArray(claude.content)) return { ...claude, model };
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const content: ClaudeContentBlock[] = [];
  if (message?.reasoning_content)
    content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  if (typeof message?.content === 'string' && message.content !== '')
    content.push({ type: 'text', text: message.content });
  for (const call of message?.tool_calls ?? []) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseArguments(call.function.arguments),
    });
  }
  return {
    id: anthropicMessageId(),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: anthropicStopReason(choice?.finish_reason),
    stop_sequence: null,
    usage: anthropicUsage(completion.usage),
  };
}
