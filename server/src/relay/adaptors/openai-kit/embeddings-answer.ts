import type { RelayCall, RelayResult, Usage } from '../../adaptor.js';
import { jsonResult } from './chat-answer.js';
import { bodyOf } from './chat-request.js';

/** A vector as OpenAI's `encoding_format: base64` sends it: little-endian float32s in base64. */
function embeddingBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/**
 * An OpenAI embeddings answer for vectors converted from another protocol; base64 when the client asked for
 * it (the official SDKs do by default and decode the answer, so plain arrays would come out as garbage).
 * Vectors without an index are numbered in order; usage is billed only when the upstream gave it.
 */
export function embeddingsResult(
  call: RelayCall,
  vectors: Array<number[] | { index: number; embedding: number[] }>,
  usage: Usage | undefined,
): RelayResult {
  const base64 = bodyOf(call).encoding_format === 'base64';
  const data = vectors.map((vector, order) => {
    const { index, embedding } = Array.isArray(vector) ? { index: order, embedding: vector } : vector;
    return { object: 'embedding', index, embedding: base64 ? embeddingBase64(embedding) : embedding };
  });
  const payload = {
    object: 'list',
    data,
    model: call.model,
    usage: { prompt_tokens: usage?.prompt_tokens ?? 0, total_tokens: usage?.total_tokens ?? 0 },
  };
  return jsonResult(payload, usage?.total_tokens ? usage : undefined);
}
