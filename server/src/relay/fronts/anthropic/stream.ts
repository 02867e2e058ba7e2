import type { ClaudeStreamEvent, ClaudeUsage } from '../../adaptors/anthropic/types.js';
import type { ChatChunk } from '../../adaptors/openai-kit/chat-types.js';
import { isObject } from '../../adaptors/openai-kit/json.js';
import { chunkPayloadText } from '../chunk-payload.js';
import { anthropicErrorType } from './errors.js';
import { anthropicMessageId, anthropicStopReason, anthropicUsage, type OpenAIUsage } from './response.js';

/** One server-sent event for an Anthropic client: `event: <type>` and its JSON data. */
export const sseEvent = (event: ClaudeStreamEvent): string =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking' }
  | { kind: 'tool'; toolIndex: number }
  /** A block of a forwarded Claude stream, opened at `blockIndex`. */
  | { kind: 'forwarded' };

/**
 * Turns OpenAI chat chunks into Anthropic's event sequence: message_start, then for each text, thinking or
 * tool-call run a content_block_start / _delta… / _stop, then message_delta (stop reason, usage) and
 * message_stop. Anthropic blocks do not interleave, so a new kind of delta closes the open block.
 *
 * A Claude upstream's payloads carry its own events (`{claude_event}`, see `claude-original.ts`): those are
 * sent on as they came (thinking, signatures, cache usage, block indexes), and the OpenAI chunks closing such
 * a stream are ignored. If it breaks off, `end()` still closes the open block and the message.
 */
export class AnthropicEventWriter {
  private started = false;
  private ended = false;
  private forwarding = false;
  private deltaSent = false;
  private blockIndex = -1;
  private open: OpenBlock | undefined;
  private finishReason: string | null = null;
  private inputTokens = 0;
  private outputTokens = 0;
  /** An OpenAI-protocol upstream's last usage chunk, reported in Anthropic's words at the end. */
  private openAIUsage: OpenAIUsage | undefined;

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
      content_block: kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' },
    });
  }

  /** The events for one OpenAI chunk (parsed `data:` JSON). */
  *accept(chunk: ChatChunk | Record<string, unknown>): Iterable<string> {
    if (this.ended) return;
    if (isObject(chunk) && isObject(chunk.error)) {
      yield* this.fail(String(chunk.error.message ?? 'upstream error'), 500);
      return;
    }
    if (isObject(chunk) && isObject(chunk.claude_event) && typeof chunk.claude_event.type === 'string') {
      yield* this.forward(chunk.claude_event as ClaudeStreamEvent);
      return;
    }
    // A forwarded Claude stream already said it all; the OpenAI chunks that close it are not for this client.
    if (this.forwarding) return;
    const typed = chunk as ChatChunk;
    yield* this.start();
    if (typed.usage) this.openAIUsage = typed.usage;
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

  private recordUsage(usage: ClaudeUsage | undefined) {
    if (typeof usage?.input_tokens === 'number') this.inputTokens = usage.input_tokens;
    if (typeof usage?.output_tokens === 'number') this.outputTokens = usage.output_tokens;
  }

  /** A Claude upstream's event, sent on as it came, with the model named as the client asked. */
  private *forward(event: ClaudeStreamEvent): Iterable<string> {
    this.forwarding = true;
    if (event.type === 'message_start') {
      if (this.started) return;
      this.started = true;
      this.recordUsage(event.message?.usage);
      yield sseEvent({ ...event, message: { ...event.message, model: this.model } });
      return;
    }
    if (event.type === 'error') {
      this.ended = true;
      yield sseEvent(event);
      return;
    }
    yield* this.start();
    if (event.type === 'message_stop') {
      this.ended = true;
      // Bedrock adds its metrics to this event; an Anthropic client has no use for them.
      yield sseEvent({ type: 'message_stop' });
      return;
    }
    if (event.type === 'content_block_start') {
      yield* this.close();
      this.blockIndex = event.index;
      this.open = { kind: 'forwarded' };
    } else if (event.type === 'content_block_stop') {
      this.open = undefined;
    } else if (event.type === 'message_delta') {
      yield* this.close();
      this.deltaSent = true;
      this.recordUsage(event.usage);
    }
    yield sseEvent(event);
  }

  /**
   * The usage of message_delta: an OpenAI upstream's (cached prompt tokens as cache reads), a forwarded Claude
   * stream's last counts, or the local prompt count when the upstream reported nothing.
   */
  private finalUsage(): ClaudeUsage {
    if (this.openAIUsage?.prompt_tokens) return anthropicUsage(this.openAIUsage);
    const outputTokens = this.openAIUsage?.completion_tokens ?? this.outputTokens;
    return { input_tokens: this.inputTokens || this.estimatedInputTokens, output_tokens: outputTokens };
  }

  /** The SSE text for one relay `data:` payload: an OpenAI chunk, the relay's error object or `[DONE]`. */
  payload(data: string): string {
    return chunkPayloadText(this, data);
  }

  /** The closing events: message_delta with the stop reason and token counts, then message_stop. */
  *end(): Iterable<string> {
    if (this.ended) return;
    yield* this.start();
    yield* this.close();
    this.ended = true;
    if (!this.deltaSent)
      yield sseEvent({
        type: 'message_delta',
        delta: { stop_reason: anthropicStopReason(this.finishReason), stop_sequence: null },
        usage: this.finalUsage(),
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
