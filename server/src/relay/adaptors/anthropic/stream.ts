import type { RelayCall, RelayChunk, Usage } from '../../adaptor.js';
import { ChunkWriter, streamErrorChunk } from '../openai-kit/chat-answer.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import { parseJson } from '../openai-kit/json.js';
import { readSseEvents } from '../openai-kit/sse-events.js';
import { claudeFinishReason, claudeUsage } from './response.js';
import type { ClaudeStreamEvent, ClaudeUsage } from './types.js';

/** The counts of a Claude usage that message_delta repeats as running totals. */
const cumulativeCounts = [
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
] as const;

/**
 * message_delta's counts are cumulative (https://docs.claude.com/en/docs/build-with-claude/streaming): its
 * output_tokens is the total so far, and with server tools its input and cache counts may grow past
 * message_start's. Counts only grow, so the larger of the two is kept in `reported` (a vendor's 0 in
 * message_delta does not erase message_start's input).
 */
export function recordClaudeUsage(reported: ClaudeUsage, usage: ClaudeUsage | undefined): void {
  if (!usage) return;
  for (const field of cumulativeCounts)
    if (typeof usage[field] === 'number') reported[field] = Math.max(reported[field] ?? 0, usage[field]);
  if (usage.cache_creation) reported.cache_creation = usage.cache_creation;
  const searches = usage.server_tool_use?.web_search_requests;
  if (typeof searches === 'number')
    reported.server_tool_use = {
      web_search_requests: Math.max(reported.server_tool_use?.web_search_requests ?? 0, searches),
    };
}

/**
 * Turns Claude stream events into OpenAI chunks (providers.md §4.8). Shared by Anthropic, Bedrock and Vertex,
 * which all deliver the same events over different framings. Tool calls are numbered 0,1,… among tool_use
 * blocks (not by Claude's block index), each carrying its id and name once. (A call from the Anthropic front
 * on a Claude channel takes the native road instead: its events are forwarded, see RelayCall.native.)
 */
export class ClaudeStreamConverter {
  private readonly writer: ChunkWriter;
  private readonly toolIndexByBlock = new Map<number, number>();
  /** The usage reported so far: message_start's, then message_delta's running totals. */
  private readonly reported: ClaudeUsage = {};
  private finishReason: string | null = null;
  private finished = false;

  constructor(model: string, includeUsage: boolean) {
    this.writer = new ChunkWriter(model, includeUsage);
  }

  private recordUsage(usage: ClaudeUsage | undefined) {
    recordClaudeUsage(this.reported, usage);
  }

  /** What the stream used so far (all of it once message_delta came). */
  get usage(): Usage {
    return claudeUsage(this.reported);
  }

  /** The chunks for one event (most events give one or none). */
  *accept(event: ClaudeStreamEvent): Iterable<RelayChunk> {
    if (this.finished) return;
    switch (event.type) {
      case 'message_start':
        this.recordUsage(event.message?.usage);
        // Billing gets the input now, for a stream that breaks off before message_delta.
        yield this.writer.delta({ content: '' }, null, event.message?.usage ? this.usage : undefined);
        return;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use') {
          const toolIndex = this.toolIndexByBlock.size;
          this.toolIndexByBlock.set(event.index, toolIndex);
          yield this.writer.delta({
            tool_calls: [
              { index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } },
            ],
          });
        } else if (block.type === 'text' && block.text) {
          yield this.writer.delta({ content: block.text });
        }
        return;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') yield this.writer.delta({ content: delta.text });
        else if (delta.type === 'thinking_delta') yield this.writer.delta({ reasoning_content: delta.thinking });
        else if (delta.type === 'input_json_delta') {
          const toolIndex = this.toolIndexByBlock.get(event.index);
          if (toolIndex !== undefined && delta.partial_json !== '') {
            yield this.writer.delta({
              tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }],
            });
          }
        }
        return;
      }
      case 'message_delta':
        this.recordUsage(event.usage);
        this.finishReason = claudeFinishReason(event.delta?.stop_reason) ?? this.finishReason;
        // Billing gets the final counts now, for a stream that breaks off before message_stop.
        if (event.usage) yield this.writer.delta({}, null, this.usage);
        return;
      case 'message_stop': {
        // Bedrock's own counts, for a stream whose events had none.
        const metrics = event['amazon-bedrock-invocationMetrics'];
        if (metrics && !this.reported.input_tokens) this.reported.input_tokens = metrics.inputTokenCount;
        if (metrics && !this.reported.output_tokens) this.reported.output_tokens = metrics.outputTokenCount;
        yield* this.end();
        return;
      }
      case 'error':
        this.finished = true;
        yield streamErrorChunk(
          event.error?.message ?? 'upstream stream error',
          event.error?.type ?? 'upstream_error',
          event.error?.type ?? null,
        );
        return;
      default:
        return;
    }
  }

  /** The finish chunk (and usage chunk); at most once, also when the upstream ended without message_stop. */
  *end(): Iterable<RelayChunk> {
    if (this.finished) return;
    this.finished = true;
    yield* this.writer.finish(this.finishReason ?? 'stop', this.usage);
  }
}

/** Whether the client asked for the usage chunk. */
export const wantsUsage = (call: RelayCall) => readChatRequest(call).stream_options?.include_usage === true;

/** Reads an Anthropic Messages SSE stream as OpenAI chunks. */
export async function* readAnthropicStream(body: AsyncIterable<Buffer>, call: RelayCall): AsyncIterable<RelayChunk> {
  const converter = new ClaudeStreamConverter(call.model, wantsUsage(call));
  let sawStart = false;
  for await (const event of readSseEvents(body)) {
    const parsed = parseJson(event.data) as ClaudeStreamEvent | undefined;
    if (!parsed || typeof parsed.type !== 'string') continue;
    if (parsed.type === 'message_start') sawStart = true;
    yield* converter.accept(parsed);
  }
  if (sawStart) yield* converter.end();
}
