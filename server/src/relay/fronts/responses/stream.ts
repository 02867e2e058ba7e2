import type { ChatChunk } from '../../adaptors/openai-kit/chat-types.js';
import { isObject } from '../../adaptors/openai-kit/json.js';
import { chunkPayloadText } from '../chunk-payload.js';
import {
  functionCallItemId,
  messageItemId,
  reasoningItemId,
  responseEnding,
  responseObject,
  responsesUsage,
  type ChatUsageDetails,
  type ResponseContext,
} from './response.js';
import type {
  ResponsesEvent,
  ResponsesFunctionCall,
  ResponsesOutputItem,
  ResponsesOutputMessage,
  ResponsesReasoning,
  ResponsesResponse,
} from './types.js';

type OpenItem =
  | { kind: 'message'; item: ResponsesOutputMessage; text: string }
  | { kind: 'call'; item: ResponsesFunctionCall; toolIndex: number }
  | { kind: 'reasoning'; item: ResponsesReasoning; text: string };

/**
 * Turns OpenAI chat chunks into the Responses API's event sequence, as OpenAI streams it: response.created and
 * response.in_progress; for a chat upstream's reasoning a reasoning item with one summary part
 * (reasoning_summary_part.added, reasoning_summary_text.delta…, .done, reasoning_summary_part.done); for each text run a message item (output_item.added, content_part.added,
 * output_text.delta…, output_text.done, content_part.done, output_item.done); for each tool call a
 * function_call item (output_item.added, function_call_arguments.delta…, .done, output_item.done); then
 * response.completed, or response.incomplete when the output limit or a content filter stopped the model,
 * or response.failed on an upstream error. Every event carries a growing `sequence_number`; the usage of the
 * final chunk lands in the final event. Items do not interleave, so a new kind of delta closes the open one.
 */
export class ResponsesEventWriter {
  private sequenceNumber = 0;
  private started = false;
  private ended = false;
  private open: OpenItem | undefined;
  private readonly output: ResponsesOutputItem[] = [];
  private finishReason: string | null = null;
  private usage: ChatUsageDetails | undefined;
  /** The response as the last event told it (completed, incomplete or failed): what is stored and billed. */
  result: ResponsesResponse | undefined;

  constructor(private readonly context: ResponseContext) {}

  private event(event: ResponsesEvent): string {
    const { type, ...fields } = event;
    const data = JSON.stringify({ type, sequence_number: this.sequenceNumber++, ...fields });
    return `event: ${type}\ndata: ${data}\n\n`;
  }

  private *start(): Iterable<string> {
    if (this.started) return;
    this.started = true;
    const response = responseObject(this.context, 'in_progress', [], null);
    yield this.event({ type: 'response.created', response });
    yield this.event({ type: 'response.in_progress', response });
  }

  private *openItem(open: OpenItem): Iterable<string> {
    yield* this.close('completed');
    this.open = open;
    yield this.event({ type: 'response.output_item.added', output_index: this.output.length, item: open.item });
    if (open.kind === 'reasoning')
      yield this.event({
        type: 'response.reasoning_summary_part.added',
        item_id: open.item.id,
        output_index: this.output.length,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
    if (open.kind === 'message')
      yield this.event({
        type: 'response.content_part.added',
        item_id: open.item.id,
        output_index: this.output.length,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      });
  }

  /** Closes the open item with its done events; `status` is incomplete when the response stopped short. */
  private *close(status: 'completed' | 'incomplete'): Iterable<string> {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    const outputIndex = this.output.length;
    let item: ResponsesOutputItem;
    if (open.kind === 'message') {
      const part = { type: 'output_text' as const, annotations: [], logprobs: [], text: open.text };
      const where = { item_id: open.item.id, output_index: outputIndex, content_index: 0 };
      yield this.event({ type: 'response.output_text.done', ...where, text: open.text, logprobs: [] });
      yield this.event({ type: 'response.content_part.done', ...where, part });
      item = { ...open.item, status, content: [part] };
    } else if (open.kind === 'reasoning') {
      const part = { type: 'summary_text' as const, text: open.text };
      const where = { item_id: open.item.id, output_index: outputIndex, summary_index: 0 };
      yield this.event({ type: 'response.reasoning_summary_text.done', ...where, text: open.text });
      yield this.event({ type: 'response.reasoning_summary_part.done', ...where, part });
      item = { ...open.item, summary: [part] };
    } else {
      yield this.event({
        type: 'response.function_call_arguments.done',
        item_id: open.item.id,
        output_index: outputIndex,
        name: open.item.name,
        arguments: open.item.arguments,
      });
      item = { ...open.item, status: 'completed' };
    }
    this.output.push(item);
    yield this.event({ type: 'response.output_item.done', output_index: outputIndex, item });
  }

  /** A text delta of the answer (`message`) or of its reasoning, opening an item of that kind first. */
  private *textDelta(kind: 'message' | 'reasoning', delta: string): Iterable<string> {
    if (this.open?.kind !== kind)
      yield* this.openItem(
        kind === 'message'
          ? {
              kind,
              item: { type: 'message', id: messageItemId(), status: 'in_progress', role: 'assistant', content: [] },
              text: '',
            }
          : { kind, item: { type: 'reasoning', id: reasoningItemId(), summary: [] }, text: '' },
      );
    const open = this.open as Extract<OpenItem, { kind: 'message' | 'reasoning' }>;
    open.text += delta;
    const where = { item_id: open.item.id, output_index: this.output.length };
    yield this.event(
      kind === 'message'
        ? { type: 'response.output_text.delta', ...where, content_index: 0, delta, logprobs: [] }
        : { type: 'response.reasoning_summary_text.delta', ...where, summary_index: 0, delta },
    );
  }

  private *toolCall(call: NonNullable<ChatChunk['choices'][number]['delta']['tool_calls']>[number]): Iterable<string> {
    const toolIndex = call.index ?? 0;
    if (this.open?.kind !== 'call' || this.open.toolIndex !== toolIndex)
      yield* this.openItem({
        kind: 'call',
        toolIndex,
        item: {
          type: 'function_call',
          id: functionCallItemId(),
          call_id: call.id ?? `call_${functionCallItemId().slice(3)}`,
          name: call.function?.name ?? '',
          arguments: '',
          status: 'in_progress',
        },
      });
    const open = this.open as Extract<OpenItem, { kind: 'call' }>;
    const delta = call.function?.arguments;
    if (!delta) return;
    open.item.arguments += delta;
    yield this.event({
      type: 'response.function_call_arguments.delta',
      item_id: open.item.id,
      output_index: this.output.length,
      delta,
    });
  }

  /** The events for one OpenAI chunk (parsed `data:` JSON), or for the relay's error object. */
  *accept(chunk: ChatChunk | Record<string, unknown>): Iterable<string> {
    if (this.ended) return;
    if (isObject(chunk) && isObject(chunk.error)) {
      const { message, code } = chunk.error;
      yield* this.fail(
        typeof message === 'string' ? message : 'upstream error',
        typeof code === 'string' ? code : undefined,
      );
      return;
    }
    const typed = chunk as ChatChunk;
    yield* this.start();
    if (typed.usage) this.usage = typed.usage;
    for (const choice of typed.choices ?? []) {
      if (choice.index !== 0) continue;
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) yield* this.textDelta('reasoning', delta.reasoning_content);
      if (delta.content) yield* this.textDelta('message', delta.content);
      for (const call of delta.tool_calls ?? []) yield* this.toolCall(call);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  /** The SSE text for one relay `data:` payload: an OpenAI chunk, the relay's error object or `[DONE]`. */
  payload(data: string): string {
    return chunkPayloadText(this, data);
  }

  /**
   * The closing events: the open item's done events, then response.completed or response.incomplete
   * (response.failed when the upstream broke off).
   */
  *end(): Iterable<string> {
    if (this.ended) return;
    // Every chat upstream ends with a finish reason, the usage chunk or both; the relay's own [DONE] after
    // neither means the upstream broke off, and the client must not take the text so far for the answer.
    if (this.finishReason === null && this.usage === undefined) {
      yield* this.fail("the upstream's stream ended before the answer was finished");
      return;
    }
    yield* this.start();
    const ending = responseEnding(this.finishReason);
    yield* this.close(ending.status === 'completed' ? 'completed' : 'incomplete');
    this.ended = true;
    this.result = {
      ...responseObject(this.context, ending.status, this.output, responsesUsage(this.usage)),
      incomplete_details: ending.incomplete_details,
    };
    const type = ending.status === 'completed' ? 'response.completed' : 'response.incomplete';
    yield this.event({ type, response: this.result });
  }

  /**
   * response.failed after an upstream error mid-stream: the output so far, the usage the upstream reported
   * (billed as any other outcome) and the error. Nothing follows it.
   */
  *fail(message: string, code = 'server_error'): Iterable<string> {
    if (this.ended) return;
    yield* this.start();
    yield* this.close('incomplete');
    this.ended = true;
    this.result = {
      // OpenAI's failed responses carry no usage when none was counted.
      ...responseObject(this.context, 'failed', this.output, this.usage ? responsesUsage(this.usage) : null),
      error: { code, message },
    };
    yield this.event({ type: 'response.failed', response: this.result });
  }
}
