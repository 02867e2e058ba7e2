import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { unreadableAnswer } from '../../upstream-error.js';
import { readAnthropicError, readAnthropicResponse } from '../anthropic/response.js';
import { embeddingsResult } from '../openai-kit/embeddings-answer.js';
import { bodyExcerpt, isObject, parseJson } from '../openai-kit/json.js';
import { usageOf } from '../openai-kit/usage.js';
import { readGeminiError, readGeminiResponse } from '../gemini/response.js';
import { isVertexClaude } from './models.js';
import type { VertexEmbeddingResponse } from './types.js';

function readEmbeddings(response: UpstreamResponse, call: RelayCall): RelayResult {
  const parsed = parseJson(response.body);
  if (!isObject(parsed) || !Array.isArray(parsed.predictions))
    throw unreadableAnswer(`no predictions: ${bodyExcerpt(response.body)}`);
  const predictions = (parsed as unknown as VertexEmbeddingResponse).predictions;
  const promptTokens = predictions.reduce(
    (sum, prediction) => sum + (prediction.embeddings?.statistics?.token_count ?? 0),
    0,
  );
  return embeddingsResult(
    call,
    predictions.map((prediction) => prediction.embeddings?.values ?? []),
    usageOf(promptTokens, 0),
  );
}

/** A Vertex answer: Claude's Messages shape, Gemini's, or embedding predictions. */
export function readVertexResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  if (call.mode === 'embeddings') return readEmbeddings(response, call);
  return isVertexClaude(call.model) ? readAnthropicResponse(response, call) : readGeminiResponse(response, call);
}

/** Vertex errors use Google's envelope, except that Claude models may answer with Anthropic's (`type: "error"`). */
export function readVertexError(response: UpstreamResponse): UpstreamErrorBody {
  const parsed = parseJson(response.body);
  return isObject(parsed) && parsed.type === 'error' ? readAnthropicError(response) : readGeminiError(response);
}
