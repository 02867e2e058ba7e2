import { randomBytes } from 'node:crypto';
import type { RelayChunk, RelayResult, Usage } from '../../adaptor.js';
import type { ChatAnswerMessage, ChatChunk, ChatCompletion, ChatDelta, ChatUsage } from './openai-chat.types.js';

/** An id in OpenAI's style for answers whose upstream has none. */
export const completionId = (upstreamId?: string) => `chatcmpl-${upstreamId || randomBytes(12).toString('hex')}`;

/** A tool-call id for upstreams that do not name their calls (Gemini, Cohere, Ollama). */
export const toolCallId = () => `call_${randomBytes(12).toString('hex')}`;

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A usage object with the total filled in. */
export function usageOf(prompt: number, completion: number, total?: number): ChatUsage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total ?? prompt + completion };
}

/** A whole chat answer with one choice. */
export function chatCompletion(options: {
  id?: string;
  model: string;
  message: ChatAnswerMessage;
  finishReason: string | null;
  usage: ChatUsage;
}): ChatCompletion {
  return {
    id: options.id ?? completionId(),
    object: 'chat.completion',
    created: nowSeconds(),
    model: options.model,
    choices: [{ index: 0, message: options.message, finish_reason: options.finishReason }],
    usage: options.usage,
  };
}

/** A chat answer as the relay result: JSON body for the client, usage and text for billing. */
export function chatResult(completion: ChatCompletion, status = 200): RelayResult {
  const usage = completion.usage.total_tokens > 0 ? completion.usage : undefined;
  const text = completion.choices
    .map((choice) => (choice.message.content ?? '') + (choice.message.reasoning_content ?? ''))
    .join('');
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(completion)),
    usage,
    text,
  };
}

/**
 * Writes the OpenAI chunks of one converted stream: same id, created and model on every chunk, the role on
 * the first delta only, and the usage chunk (`choices: []`) only when the client asked for it.
 */
export class ChunkWriter {
  readonly id: string;
  readonly created = nowSeconds();
  private roleSent = false;

  constructor(
    readonly model: string,
    private readonly includeUsage: boolean,
    id?: string,
  ) {
    this.id = id ?? completionId();
  }

  /** One delta (and maybe a finish reason) of choice `index` as a relay chunk. */
  delta(delta: ChatDelta, finishReason: string | null = null, usage?: Usage, index = 0): RelayChunk {
    const withRole: ChatDelta = this.roleSent ? delta : { role: 'assistant', ...delta };
    this.roleSent = true;
    const chunk: ChatChunk = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index, delta: withRole, finish_reason: finishReason }],
    };
    const text = (delta.content ?? '') + (delta.reasoning_content ?? '');
    return { data: JSON.stringify(chunk), text: text || undefined, usage };
  }

  /** The usage chunk (`choices: []`), only when the client set `stream_options.include_usage`. */
  *usageChunk(usage: Usage | undefined): Iterable<RelayChunk> {
    if (!this.includeUsage || !usage) return;
    const chunk: ChatChunk = {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [],
      usage,
    };
    yield { data: JSON.stringify(chunk), usage };
  }

  /** The end of the stream: the finish chunk (billing usage attached to it), then the usage chunk if asked for. */
  *finish(finishReason: string, usage: Usage | undefined): Iterable<RelayChunk> {
    yield this.delta({}, finishReason, usage);
    yield* this.usageChunk(usage);
  }
}

/** An error in the middle of a stream, in the shape OpenAI clients read (`data: {"error":…}`). */
export function streamErrorChunk(message: string, type: string, code: string | null = null): RelayChunk {
  return { data: JSON.stringify({ error: { message, type, param: null, code } }) };
}
