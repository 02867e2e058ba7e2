import { isObject } from '../../adaptors/openai-kit/json.js';
import { contentText } from './request.js';
import type { GeminiEmbedContentRequest } from './types.js';

/** An embedding request's fields OpenAI's embeddings request carries (`model` is the path's). */
const convertedFields: ReadonlySet<string> = new Set(['model', 'content', 'outputDimensionality']);

/** OpenAI's embeddings request as the front builds it. */
interface EmbeddingsRequest {
  model: string;
  input: string[];
  encoding_format: 'float';
  dimensions?: number;
}

/**
 * Gemini embedding requests (one for embedContent, several for batchEmbedContents, `prefix` naming where they
 * stand) as one OpenAI embeddings request: each content's text one input, `outputDimensionality` as
 * `dimensions`. taskType and title have no OpenAI form and are listed in `dropped`.
 */
export function geminiToEmbeddingsRequest(
  requests: GeminiEmbedContentRequest[],
  model: string,
  prefix: (index: number) => string,
): { request: EmbeddingsRequest; dropped: string[] } {
  const dropped: string[] = [];
  const dimensions = requests[0]?.outputDimensionality;
  for (const [index, request] of requests.entries()) {
    for (const field of Object.keys(request).filter((key) => !convertedFields.has(key)))
      dropped.push(`${prefix(index)}${field}`);
    // OpenAI takes one size for the whole call.
    if (request.outputDimensionality !== dimensions) dropped.push(`${prefix(index)}outputDimensionality`);
  }
  const request: EmbeddingsRequest = {
    model,
    input: requests.map((entry) => contentText(entry.content)),
    encoding_format: 'float',
  };
  if (dimensions) request.dimensions = dimensions;
  return { request, dropped };
}

/** An OpenAI embeddings answer's vectors, in input order. */
export function embeddingVectors(answer: unknown): number[][] {
  const data = isObject(answer) && Array.isArray(answer.data) ? answer.data.filter(isObject) : [];
  return [...data]
    .sort((left, right) => Number(left.index ?? 0) - Number(right.index ?? 0))
    .map((entry) => (Array.isArray(entry.embedding) ? (entry.embedding as number[]) : []));
}
