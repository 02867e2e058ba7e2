import type { ClaudeStreamEvent } from '../../adaptors/anthropic/types.js';
import { isRecord } from '../../adaptors/chat-shapes/upstream-errors.js';
import type { ChatChunk } from '../../adaptors/chat-shapes/openai-chat.types.js';
import { anthropicErrorType } from './errors.js';
import { anthropicMessageId, anthropicStopReason } from './response.js';

/** One server-sent event for an Anthropic client: `event: <type>` and its JSON data. */
export const sseEvent = (event: ClaudeStreamEvent): string =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

type OpenBlock = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; toolIndex: number };

/**
 * Turns OpenAI chat chunks into Anthropic's event sequence: message_start, then for each text, thinking or
 * tool-call run a content_block_start / _delta… / _stop, then message_delta (stop reason, usage) and
 * message_stop. Anthropic blocks do not interleave, so a new kind of delta closes the open block.
 */
export class AnthropicEventWriter {
  private started = false;
  private ended = false;
  private blockIndex = -1;
  private open: OpenBlock | undefined;
  private finishReason: string | null = null;
  private inputTokens = 0;
  private outputTokens = 0;

  /** `estimatedInputTokens` (a local count) fills message_start, which comes before any upstream usage. */
  constructor(
    private readonly model: string,
    private readonly estimatedInputTokens = 0,
  ) {}

  private *start(): Iterable<string> {
    if (this.started) return;
    this.started = true;
    yield sseEvent({
      type: 'message_start',
      message: {
        id: anthropicMessageId(),
        type: 'message',
        role: 'assistant',
        model: this.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: this.estimatedInputTokens, output_tokens: 0 },
      },
    });
  }

  private *close(): Iterable<string> {
    if (!this.open) return;
    yield sseEvent({ type: 'content_block_stop', index: this.blockIndex });
    this.open = undefined;
  }

  private *openText(kind: 'text' | 'thinking'): Iterable<string> {
    if (this.open?.kind === kind) return;
    yield* this.close();
    this.blockIndex += 1;
    this.open = { kind };
    yield sseEvent({
      type: 'content_block_start',
      index: this.blockIndex,
      content_block: kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' },
    });
  }

  /** The events for one OpenAI chunk (parsed `data:` JSON). */
  *accept(chunk: ChatChunk | Record<string, unknown>): Iterable<string> {
    if (this.ended) return;
    if (isRecord(chunk) && isRecord(chunk.error)) {
      yield* this.fail(String(chunk.error.message ?? 'upstream error'), 500);
      return;
    }
    const typed = chunk as ChatChunk;
    yield* this.start();
    if (typed.usage) {
      this.inputTokens = typed.usage.prompt_tokens ?? this.inputTokens;
      this.outputTokens = typed.usage.completion_tokens ?? this.outputTokens;
    }
    for (const choice of typed.choices ?? []) {
      if (choice.index !== 0) continue;
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) {
        yield* this.openText('thinking');
        yield sseEvent({
          type: 'content_block_delta',
          index: this.blockIndex,
          delta: { type: 'thinking_delta', thinking: delta.reasoning_content },
        });
      }
      if (delta.content) {
        yield* this.openText('text');
        yield sseEvent({
          type: 'content_block_delta',
          index: this.blockIndex,
          delta: { type: 'text_delta', text: delta.content },
        });
      }
      for (const call of delta.tool_calls ?? []) {
        const toolIndex = call.index ?? 0;
        if (this.open?.kind !== 'tool' || this.open.toolIndex !== toolIndex) {
          yield* this.close();
          this.blockIndex += 1;
          this.open = { kind: 'tool', toolIndex };
          yield sseEvent({
            type: 'content_block_start',
            index: this.blockIndex,
            content_block: {
              type: 'tool_use',
              id: call.id ?? `toolu_${anthropicMessageId().slice(4)}`,
              name: call.function?.name ?? '',
              input: {},
            },
          });
        }
        if (call.function?.arguments) {
          yield sseEvent({
            type: 'content_block_delta',
            index: this.blockIndex,
            delta: { type: 'input_json_delta', partial_json: call.function.arguments },
          });
        }
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  /** The closing events: message_delta with the stop reason and token counts, then message_stop. */
  *end(): Iterable<string> {
    if (this.ended) return;
    yield* this.start();
    yield* this.close();
    this.ended = true;
    yield sseEvent({
      type: 'message_delta',
      delta: { stop_reason: anthropicStopReason(this.finishReason), stop_sequence: null },
      usage: { input_tokens: this.inputTokens || this.estimatedInputTokens, output_tokens: this.outputTokens },
    });
    yield sseEvent({ type: 'message_stop' });
  }

  /** An `error` event (Anthropic's mid-stream failure); nothing follows it. */
  *fail(message: string, status: number): Iterable<string> {
    if (this.ended) return;
    this.ended = true;
    yield sseEvent({ type: 'error', error: { type: anthropicErrorType(status), message } });
  }
}
