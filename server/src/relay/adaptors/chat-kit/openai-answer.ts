import type { RelayResult, Usage } from '../../adaptor.js';
import type { OpenAIToolCall } from './openai-chat.js';

/** The assistant message of a converted answer. */
export interface AnswerMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: OpenAIToolCall[];
  reasoning_content?: string;
}

export interface ChatCompletionParts {
  id: string;
  created: number;
  model: string;
  message: AnswerMessage;
  finishReason: string | null;
  usage?: Usage;
}

/** Seconds since the epoch, as OpenAI's `created`. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A usage object from prompt and completion counts (total derived when the upstream gave none). */
export function usageOf(prompt: number, completion: number, total?: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total || prompt + completion };
}

/** A whole OpenAI chat completion, ready for the client, with usage and text for billing. */
export function chatCompletionResult(parts: ChatCompletionParts): RelayResult {
  const payload = {
    id: parts.id,
    object: 'chat.completion',
    created: parts.created,
    model: parts.model,
    choices: [{ index: 0, message: parts.message, logprobs: null, finish_reason: parts.finishReason }],
    usage: parts.usage ?? usageOf(0, 0),
  };
  const text =
    (parts.message.content ?? '') + (parts.message.tool_calls ?? []).map((call) => call.function.arguments).join('');
  return jsonResult(payload, parts.usage, text);
}

/** A JSON answer for the client. */
export function jsonResult(payload: unknown, usage: Usage | undefined, text?: string): RelayResult {
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(payload)),
    usage,
    text,
  };
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string;
  tool_calls?: Array<{ index: number; id?: string; type?: 'function'; function: { name?: string; arguments: string } }>;
}

export interface ChatChunkParts {
  id: string;
  created: number;
  model: string;
  delta: ChunkDelta;
  finishReason: string | null;
  usage?: Usage;
}

/** One `chat.completion.chunk` payload (the text after `data: `). Usage rides on the chunk that has it. */
export function chatChunkData(parts: ChatChunkParts): string {
  const payload: Record<string, unknown> = {
    id: parts.id,
    object: 'chat.completion.chunk',
    created: parts.created,
    model: parts.model,
    choices: [{ index: 0, delta: parts.delta, logprobs: null, finish_reason: parts.finishReason }],
  };
  if (parts.usage) payload.usage = parts.usage;
  return JSON.stringify(payload);
}

/** A vector as OpenAI's `encoding_format: base64` sends it: little-endian float32s in base64. */
export function embeddingBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/**
 * Embeddings in OpenAI's list shape; base64 when the client asked for it (the official SDKs do by default
 * and decode the answer, so plain arrays would come out as garbage).
 */
export function embeddingsResult(
  model: string,
  vectors: Array<{ index: number; embedding: number[] }>,
  usage: Usage,
  encodingFormat?: unknown,
): RelayResult {
  const encode = (vector: number[]) => (encodingFormat === 'base64' ? embeddingBase64(vector) : vector);
  const payload = {
    object: 'list',
    data: vectors.map((vector) => ({ object: 'embedding', index: vector.index, embedding: encode(vector.embedding) })),
    model,
    usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.total_tokens },
  };
  return jsonResult(payload, usage);
}
