import { randomHex } from '../../../lib/random.js';
import type { RelayChunk, RelayResult, Usage } from '../../adaptor.js';
import { nowSeconds } from '../../../lib/time.js';
import type { ChatAnswerMessage, ChatChunk, ChatCompletion, ChatDelta } from './chat-types.js';
import { usageOf } from './usage.js';

/** An id in OpenAI's style for answers whose upstream has none. */
export const completionId = (upstreamId?: string) => `chatcmpl-${upstreamId || randomHex(12)}`;

/** A tool-call id for upstreams that do not name their calls (Gemini, Cohere, Ollama, ERNIE, Spark). */
export const toolCallId = () => `call_${randomHex(12)}`;

/** A whole chat answer with one choice; the id and the time are made up when the upstream gave none. */
export function chatCompletion(options: {
  id?: string;
  created?: number;
  model: string;
  message: ChatAnswerMessage;
  finishReason: string | null;
  usage?: Usage;
}): ChatCompletion {
  return {
    id: options.id ?? completionId(),
    object: 'chat.completion',
    created: options.created ?? nowSeconds(),
    model: options.model,
    choices: [{ index: 0, message: options.message, logprobs: null, finish_reason: options.finishReason }],
    usage: options.usage ?? usageOf(0, 0),
  };
}

/** A JSON answer for the client, with usage and text for billing. */
export function jsonResult(payload: unknown, usage: Usage | undefined, text?: string, status = 200): RelayResult {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(payload)),
    usage,
    text,
  };
}

/** A chat answer as the relay result: JSON body for the client, usage and generated text for billing. */
export function chatResult(completion: ChatCompletion, status = 200): RelayResult {
  const usage = completion.usage.total_tokens > 0 ? completion.usage : undefined;
  const text = completion.choices
    .map(({ message }) => {
      const toolArguments = (message.tool_calls ?? []).map((call) => call.function.arguments).join('');
      return (message.content ?? '') + (message.reasoning_content ?? '') + toolArguments;
    })
    .join('');
  return jsonResult(completion, usage, text, status);
}

interface ChunkHead {
  id: string;
  created: number;
  model: string;
}

/** One `chat.completion.chunk` payload (the text after `data: `); usage rides on the chunk that has it. */
function chunkData(head: ChunkHead, choices: ChatChunk['choices'], usage?: Usage): string {
  const chunk: ChatChunk = {
    id: head.id,
    object: 'chat.completion.chunk',
    created: head.created,
    model: head.model,
    choices,
  };
  if (usage) chunk.usage = usage;
  return JSON.stringify(chunk);
}

/** The payload of a one-choice chunk, for converters that keep the upstream's own ids and times. */
export function chatChunkData(
  parts: ChunkHead & { delta: ChatDelta; finishReason: string | null; usage?: Usage },
): string {
  return chunkData(
    parts,
    [{ index: 0, delta: parts.delta, logprobs: null, finish_reason: parts.finishReason }],
    parts.usage,
  );
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
    const data = chunkData(this, [{ index, delta: withRole, logprobs: null, finish_reason: finishReason }]);
    const text = (delta.content ?? '') + (delta.reasoning_content ?? '');
    return { data, text: text || undefined, usage };
  }

  /** The usage chunk (`choices: []`), only when the client set `stream_options.include_usage`. */
  *usageChunk(usage: Usage | undefined): Iterable<RelayChunk> {
    if (!this.includeUsage || !usage) return;
    yield { data: chunkData(this, [], usage), usage };
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
