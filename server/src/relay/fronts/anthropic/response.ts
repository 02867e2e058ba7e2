import { randomBytes } from 'node:crypto';
import type { ChatCompletionWithClaude } from '../../adaptors/anthropic/claude-original.js';
import type { ClaudeContentBlock, ClaudeResponse } from '../../adaptors/anthropic/types.js';
import { parseArguments } from '../../adaptors/chat-shapes/chat-request.js';
import { isRecord } from '../../adaptors/chat-shapes/upstream-errors.js';

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

/** A message id in Anthropic's style. */
export const anthropicMessageId = () => `msg_${randomBytes(12).toString('hex')}`;

/**
 * An OpenAI chat completion (first choice) as an Anthropic message. A Claude upstream's answer carries its
 * message (`claude_message`): that is sent back as it came, under the client's model name.
 */
export function chatCompletionToAnthropic(completion: ChatCompletionWithClaude, model: string): ClaudeResponse {
  const claude = completion.claude_message;
  if (isRecord(claude) && Array.isArray(claude.content)) return { ...claude, model };
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
    usage: {
      input_tokens: completion.usage?.prompt_tokens ?? 0,
      output_tokens: completion.usage?.completion_tokens ?? 0,
    },
  };
}
