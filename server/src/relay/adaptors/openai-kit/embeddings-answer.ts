import type { RelayCall, RelayResult } from '../../adaptor.js';
import { usageOf } from './chat-answer.js';

/**
 * One vector as the client asked for it: a number list, or with `encoding_format: "base64"` (what the
 * official OpenAI SDKs send by default) the little-endian float32 bytes in base64.
 */
function encodeVector(vector: number[], base64: boolean): number[] | string {
  if (!base64) return vector;
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

/** An OpenAI embeddings answer for vectors converted from another protocol; usage only when the upstream gave it. */
export function embeddingsResult(call: RelayCall, vectors: number[][], promptTokens?: number): RelayResult {
  const base64 = call.body.kind === 'json' && call.body.value.encoding_format === 'base64';
  const prompt = promptTokens ?? 0;
  const answer = {
    object: 'list',
    data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: encodeVector(vector, base64) })),
    model: call.model,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  };
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(answer)),
    usage: prompt > 0 ? usageOf(prompt, 0) : undefined,
  };
}
