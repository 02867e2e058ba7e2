import type { Usage } from '../../adaptor.js';
import { candidateContent, geminiUsage } from '../../adaptors/gemini/response.js';
import type { ChatChunk, ChatUsage } from '../../adaptors/openai-kit/chat-types.js';
import { isObject, parseJson } from '../../adaptors/openai-kit/json.js';
import type { GeminiPart, GeminiResponse } from '../../adaptors/gemini/types.js';
import { googleError, googleStatusName } from './errors.js';
import type { NativeStream } from '../../pipeline/relay-job.js';
import { functionCallPart, geminiFinishReason, usageMetadataOf } from './response.js';

/**
 * How the stream is framed: `sse` (`?alt=sse`, what the SDKs ask for) writes each response as a `data:`
 * event; `array` (no `alt`) writes one JSON array whose elements arrive as they are made, as Google does.
 */
export type GeminiStreamFraming = 'sse' | 'array';

/** A tool call of one choice while its arguments arrive in pieces. */
interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Turns the relay's stream payloads into Gemini's streamGenerateContent responses (a Gemini upstream's own
 * events take the native road instead, GeminiNativeStream). OpenAI chunks become one response per text delta; tool calls,
 * whose arguments OpenAI streams in pieces, go out whole in the last response, with the finish reason and the
 * usage (Gemini's last chunk carries both). An error payload ends the stream with Google's error object.
 */
export class GeminiStreamWriter {
  private readonly calls = new Map<number, Map<number, PendingCall>>();
  private readonly finishReasons = new Map<number, string>();
  private usage: ChatUsage | undefined;
  private responseId: string | undefined;
  private written = 0;
  private ended = false;

  constructor(
    private readonly model: string,
    private readonly framing: GeminiStreamFraming,
  ) {}

  /** One relay payload (OpenAI chunk, Gemini event, error object or `[DONE]`) as the text to write. */
  payload(data: string): string {
    if (this.ended) return '';
    if (data === '[DONE]') return this.end();
    const parsed = parseJson(data);
    if (!isObject(parsed)) return '';
    if (isObject(parsed.error)) return this.fail(parsed.error);
    return this.accept(parsed as unknown as ChatChunk);
  }

  /** The stream's end: the last response (finish reasons, tool calls, usage), then the array's close. */
  end(): string {
    if (this.ended) return '';
    let text = '';
    if (this.finishReasons.size > 0 || this.calls.size > 0 || this.usage) text = this.write(this.lastResponse());
    this.ended = true;
    return this.framing === 'array' ? `${text}${this.written === 0 ? '[' : ''}]` : text;
  }

  private accept(chunk: ChatChunk): string {
    this.responseId ??= chunk.id;
    if (chunk.usage) this.usage = chunk.usage;
    let text = '';
    for (const choice of chunk.choices ?? []) {
      const parts: GeminiPart[] = [];
      const { delta } = choice;
      if (delta?.reasoning_content) parts.push({ text: delta.reasoning_content, thought: true });
      if (delta?.content) parts.push({ text: delta.content });
      for (const call of delta?.tool_calls ?? []) this.collect(choice.index, call);
      if (choice.finish_reason) this.finishReasons.set(choice.index, choice.finish_reason);
      if (parts.length > 0)
        text += this.write(this.response([{ content: { role: 'model', parts }, index: choice.index }]));
    }
    return text;
  }

  private collect(choice: number, call: NonNullable<ChatChunk['choices'][number]['delta']['tool_calls']>[number]) {
    const calls = this.calls.get(choice) ?? new Map<number, PendingCall>();
    this.calls.set(choice, calls);
    const pending = calls.get(call.index);
    if (pending) pending.arguments += call.function?.arguments ?? '';
    else
      calls.set(call.index, {
        id: call.id ?? `call_${choice}_${call.index}`,
        name: call.function?.name ?? '',
        arguments: call.function?.arguments ?? '',
      });
  }

  private lastResponse(): GeminiResponse {
    const indexes = new Set([...this.finishReasons.keys(), ...this.calls.keys()]);
    if (indexes.size === 0) indexes.add(0);
    const candidates = [...indexes].map((index) => {
      const parts = [...(this.calls.get(index)?.values() ?? [])].map((call) =>
        functionCallPart({ id: call.id, function: { name: call.name, arguments: call.arguments } }),
      );
      return {
        content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] },
        finishReason: geminiFinishReason(this.finishReasons.get(index)),
        index,
      };
    });
    return this.response(candidates);
  }

  private response(candidates: NonNullable<GeminiResponse['candidates']>): GeminiResponse {
    return {
      candidates,
      ...(this.usage && candidates.some((candidate) => candidate.finishReason)
        ? { usageMetadata: usageMetadataOf(this.usage) }
        : {}),
      modelVersion: this.model,
      ...(this.responseId ? { responseId: this.responseId } : {}),
    };
  }

  /** An error inside the stream, as Google ends a stream that failed (an element or event with `error`). */
  private fail(error: Record<string, unknown>): string {
    const message = typeof error.message === 'string' ? error.message : 'the upstream stream failed';
    const code = 500;
    const text = this.write(googleError(code, message, { status: googleStatusName(code) }));
    this.ended = true;
    return this.framing === 'array' ? `${text}]` : text;
  }

  private write(response: object): string {
    return this.element(JSON.stringify(response));
  }

  /** One response's JSON as the framing writes it; after an error, the array's close too. */
  element(json: string, error = false): string {
    if (this.ended) return '';
    this.written += 1;
    if (error) {
      this.ended = true;
      if (this.framing === 'array') return `${this.written === 1 ? '[' : ',\r\n'}${json}]`;
    }
    if (this.framing === 'sse') return `data: ${json}\r\n\r\n`;
    return `${this.written === 1 ? '[' : ',\r\n'}${json}`;
  }
}

/**
 * A Gemini upstream's stream on the native road (the Gemini front on a Gemini or Vertex channel): its events go
 * on as they came (`alt=sse`), or as the elements of the JSON array a client without `alt` reads. The usage is
 * read once, from the last event that carried it (its counts are running totals); the text only when the
 * stream ended before its finish reason.
 */
export class GeminiNativeStream implements NativeStream {
  closing = false;
  ended = false;
  private usageEvent: string | undefined;
  /** The events before the finish reason, read only when the stream ends without one. */
  private readonly events: string[] = [];

  constructor(
    private readonly writer: GeminiStreamWriter,
    private readonly framing: GeminiStreamFraming,
  ) {}

  event(data: string): string | undefined {
    if (this.ended) return '';
    if (data.includes('"usageMetadata"')) this.usageEvent = data;
    if (data.includes('"finishReason"')) this.closing = true;
    else this.events.push(data);
    const error = data.includes('"error"') && isObject((parseJson(data) as { error?: unknown } | undefined)?.error);
    if (error) this.ended = true;
    return this.framing === 'sse' ? undefined : this.writer.element(data, error);
  }

  result(): { usage?: Usage; text: string } {
    const metadata = this.usageEvent && (parseJson(this.usageEvent) as GeminiResponse).usageMetadata;
    let text = '';
    if (!this.closing)
      for (const data of this.events)
        for (const candidate of (parseJson(data) as GeminiResponse | undefined)?.candidates ?? []) {
          const content = candidateContent(candidate);
          text += content.text + content.reasoning + content.toolCalls.map((call) => call.function.arguments).join('');
        }
    return { ...(metadata ? { usage: geminiUsage(metadata) } : {}), text };
  }
}
