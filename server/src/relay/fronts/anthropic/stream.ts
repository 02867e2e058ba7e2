import type { Usage } from '../../adaptor.js';
import { claudeUsage } from '../../adaptors/anthropic/response.js';
import { recordClaudeUsage } from '../../adaptors/anthropic/stream.js';
import type { ClaudeStreamEvent, ClaudeUsage } from '../../adaptors/anthropic/types.js';
import type { ChatChunk } from '../../adaptors/openai-kit/chat-types.js';
import { isObject, parseJson, stringOf } from '../../adaptors/openai-kit/json.js';
import type { NativeStream } from '../../pipeline/relay-job.js';
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
  /** A block of a Claude upstream's stream on the native road, opened at `blockIndex`. */
  | { kind: 'forwarded' };

/**
 * Turns OpenAI chat chunks into Anthropic's event sequence: message_start, then for each text, thinking or
 * tool-call run a content_block_start / _delta… / _stop, then message_delta (stop reason, usage) and
 * message_stop. Anthropic blocks do not interleave, so a new kind of delta closes the open block.
 *
 * On the native road a Claude upstream's events are forwarded as they came (ClaudeNativeStream), which tells
 * this writer where the stream stands (`forwarded`): if it breaks off, `end()` still closes the open block and
 * the message.
 */
export class AnthropicEventWriter {
  private started = false;
  private ended = false;
  private deltaSent = false;
  private blockIndex = -1;
  private open: OpenBlock | undefined;
  private finishReason: string | null = null;
  private inputTokens = 0;
  private outputTokens = 0;
  /** An OpenAI-protocol upstream's last usage chunk, reported in Anthropic's words at the end. */
  private openAIUsage: OpenAIUsage | undefined;

  private readonly estimate: () => number;
  private estimated: number | undefined;

  /**
   * `estimatedInputTokens` (a local count) fills message_start, which comes before any upstream usage. Given as
   * a function, it is counted only when a converted stream needs it: a native Claude stream carries its own, and
   * counting Claude Code's whole conversation cost more than relaying it.
   */
  constructor(
    private readonly model: string,
    estimatedInputTokens: number | (() => number) = 0,
  ) {
    this.estimate = typeof estimatedInputTokens === 'number' ? () => estimatedInputTokens : estimatedInputTokens;
  }

  private get estimatedInputTokens(): number {
    return (this.estimated ??= this.estimate());
  }

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

  /** A Claude upstream's event forwarded on the native road: where the stream now stands. */
  forwarded(type: string, index: number | undefined, usage: ClaudeUsage | undefined): void {
    if (type === 'message_start') this.started = true;
    else if (type === 'error' || type === 'message_stop') this.ended = true;
    else if (type === 'content_block_start') {
      this.blockIndex = index ?? this.blockIndex + 1;
      this.open = { kind: 'forwarded' };
    } else if (type === 'content_block_stop') this.open = undefined;
    else if (type === 'message_delta') {
      this.open = undefined;
      this.deltaSent = true;
    }
    this.recordUsage(usage);
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

/** The `type` of a Claude event's JSON: read from its start (where Anthropic writes it), parsed otherwise. */
function eventType(data: string): string | undefined {
  const type = /^\{\s*"type"\s*:\s*"([a-z_]+)"/.exec(data)?.[1];
  if (type) return type;
  const parsed = parseJson(data);
  return isObject(parsed) && typeof parsed.type === 'string' ? parsed.type : undefined;
}

/** The generated text of content_block_delta events, for counting when the stream reported no final usage. */
function deltaText(deltas: string[]): string {
  let text = '';
  for (const data of deltas) {
    const delta = (parseJson(data) as { delta?: Record<string, unknown> } | undefined)?.delta;
    if (isObject(delta)) text += stringOf(delta.text) + stringOf(delta.thinking) + stringOf(delta.partial_json);
  }
  return text;
}

/**
 * A Claude upstream's stream on the native road (the Anthropic front on an Anthropic, Bedrock or Vertex Claude
 * channel): every event goes on as it came (thinking, signatures, cache usage, block indexes) but
 * message_start, which names the model the client asked for, and Bedrock's message_stop, whose metrics an
 * Anthropic client has no use for. Only the events carrying usage are parsed (message_start, message_delta);
 * the others are told by the type at their start.
 */
export class ClaudeNativeStream implements NativeStream {
  closing = false;
  ended = false;
  private readonly reported: ClaudeUsage = {};
  private reportedFinal = false;
  /** content_block_delta payloads, read only when the stream ends without its final usage. */
  private readonly deltas: string[] = [];

  constructor(
    private readonly writer: AnthropicEventWriter,
    private readonly model: string,
  ) {}

  event(data: string): string | undefined {
    if (this.ended) return '';
    const type = eventType(data);
    if (type === 'content_block_delta') {
      if (!this.reportedFinal) this.deltas.push(data);
      return undefined;
    }
    if (type === 'content_block_start') {
      const index = /"index"\s*:\s*(\d+)/.exec(data)?.[1];
      this.writer.forwarded(type, index === undefined ? undefined : Number(index), undefined);
      return undefined;
    }
    if (type === 'message_start') return this.start(data);
    if (type === 'message_delta') {
      const usage = (parseJson(data) as ClaudeStreamEvent & { type: 'message_delta' }).usage;
      recordClaudeUsage(this.reported, usage);
      this.reportedFinal ||= usage !== undefined;
      this.closing = true;
      this.writer.forwarded(type, undefined, usage);
      return undefined;
    }
    if (type === 'message_stop') {
      this.closing = true;
      this.ended = true;
      this.writer.forwarded(type, undefined, undefined);
      return data.includes('amazon-bedrock-invocationMetrics') ? this.bedrockStop(data) : undefined;
    }
    if (type === 'error') this.ended = true;
    if (type) this.writer.forwarded(type, undefined, undefined);
    return undefined;
  }

  private start(data: string): string | undefined {
    const event = parseJson(data) as ClaudeStreamEvent & { type: 'message_start' };
    const usage = event.message?.usage;
    recordClaudeUsage(this.reported, usage);
    this.writer.forwarded('message_start', undefined, usage);
    if (event.message?.model === this.model) return undefined;
    return sseEvent({ ...event, message: { ...event.message, model: this.model } });
  }

  /** Bedrock's own counts, for a stream whose events had none; the event without them. */
  private bedrockStop(data: string): string {
    const metrics = (parseJson(data) as ClaudeStreamEvent & { type: 'message_stop' })[
      'amazon-bedrock-invocationMetrics'
    ];
    if (metrics && !this.reported.input_tokens) this.reported.input_tokens = metrics.inputTokenCount;
    if (metrics && !this.reported.output_tokens) this.reported.output_tokens = metrics.outputTokenCount;
    return sseEvent({ type: 'message_stop' });
  }

  result(): { usage?: Usage; text: string } {
    const reported = Object.keys(this.reported).length > 0;
    return {
      ...(reported ? { usage: claudeUsage(this.reported) } : {}),
      text: this.reportedFinal ? '' : deltaText(this.deltas),
    };
  }
}
