import type { RelayCall, RelayResult, UpstreamErrorBody, UpstreamResponse } from '../../adaptor.js';
import { unreadableAnswer } from '../../upstream-error.js';
import { readAnthropicError, readAnthropicResponse } from '../anthropic/response.js';
import { bodyExcerpt, isRecord, parseJsonBody } from '../chat-shapes/upstream-errors.js';
import { readGeminiError, readGeminiResponse } from '../gemini/response.js';
import { isVertexClaude } from './models.js';
import type { VertexEmbeddingResponse } from './types.js';

function readEmbeddings(response: UpstreamResponse, call: RelayCall): RelayResult {
  const parsed = parseJsonBody(response.body);
  if (!isRecord(parsed) || !Array.isArray(parsed.predictions)) throw unreadableAnswer(`no predictions: ${bodyExcerpt(response.body)}`);
  const predictions = (parsed as unknown as VertexEmbeddingResponse).predictions;
  const promptTokens = predictions.reduce((sum, prediction) => sum + (prediction.embeddings?.statistics?.token_count ?? 0), 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: 0, total_tokens: promptTokens };
  const answer = {
    object: 'list',
    data: predictions.map((prediction, index) => ({ object: 'embedding', index, embedding: prediction.embeddings?.values ?? [] })),
    model: call.model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(answer)), usage: promptTokens > 0 ? usage : undefined };
}

/** A Vertex answer: Claude's Messages shape, Gemini's, or embedding predictions. */
export function readVertexResponse(response: UpstreamResponse, call: RelayCall): RelayResult {
  if (call.mode === 'embeddings') return readEmbeddings(response, call);
  return isVertexClaude(call.model) ? readAnthropicResponse(response, call) : readGeminiResponse(response, call);
}

/** Vertex errors use Google's envelope, except that Claude models may answer with Anthropic's (`type: "error"`). */
export function readVertexError(response: UpstreamResponse): UpstreamErrorBody {
  const parsed = parseJsonBody(response.body);
  return isRecord(parsed) && parsed.type === 'error' ? readAnthropicError(response) : readGeminiError(response);
}
