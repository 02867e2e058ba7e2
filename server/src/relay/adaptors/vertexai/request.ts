import type { RelayCall, UpstreamRequest } from '../../adaptor.js';
import { claudeCallRequest } from '../anthropic/request.js';
import type { ClaudeRequest } from '../anthropic/types.js';
import { readChatRequest } from '../openai-kit/chat-request.js';
import { geminiCallOriginal, nativeGenerateBody } from '../gemini/gemini-original.js';
import { toGeminiRequest } from '../gemini/request.js';
import { isVertexClaude } from './models.js';
import type { VertexEmbeddingRequest, VertexSettings } from './types.js';

/** Claude on Vertex names its API version in the body. */
export const vertexAnthropicVersion = 'vertex-2023-10-16';

/** `https://{region}-aiplatform.googleapis.com` (the global region has no prefix), unless the channel sets a base URL. */
export function vertexBaseUrl(call: RelayCall, settings: VertexSettings): string {
  if (call.channel.baseUrl) return call.channel.baseUrl;
  return settings.region === 'global'
    ? 'https://aiplatform.googleapis.com'
    : `https://${settings.region}-aiplatform.googleapis.com`;
}

/** `/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}` for this call. */
export function vertexUrl(call: RelayCall, settings: VertexSettings): string {
  const claude = isVertexClaude(call.model);
  let method: string;
  if (call.mode === 'embeddings') method = 'predict';
  else if (claude) method = call.stream ? 'streamRawPredict?alt=sse' : 'rawPredict';
  else method = call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  const publisher = claude ? 'anthropic' : 'google';
  const path = `/v1/projects/${encodeURIComponent(settings.projectId)}/locations/${encodeURIComponent(settings.region)}/publishers/${publisher}/models/${encodeURIComponent(call.model)}`;
  return `${vertexBaseUrl(call, settings)}${path}:${method}`;
}

/** The OpenAI embeddings input as a text-embedding `:predict` body. */
export function toVertexEmbeddingRequest(value: Record<string, unknown>): VertexEmbeddingRequest {
  const input = value.input;
  const texts = Array.isArray(input)
    ? input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)))
    : [typeof input === 'string' ? input : ''];
  const body: VertexEmbeddingRequest = { instances: texts.map((content) => ({ content })) };
  if (typeof value.dimensions === 'number') body.parameters = { outputDimensionality: value.dimensions };
  return body;
}

/**
 * The body for this call: Claude's Messages body (no model, Vertex version; `claude` given), Gemini's (the
 * Gemini front's as sent), or an embedding predict.
 */
export function vertexBody(
  call: RelayCall,
  claude = call.mode === 'chat' && isVertexClaude(call.model) ? claudeCallRequest(call).body : undefined,
): string {
  if (call.mode === 'embeddings')
    return JSON.stringify(toVertexEmbeddingRequest(call.body.kind === 'json' ? call.body.value : {}));
  if (!claude) {
    // A call from the Gemini front sends the client's own body.
    const original = geminiCallOriginal(call);
    return JSON.stringify(original ? nativeGenerateBody(call, original) : toGeminiRequest(readChatRequest(call)));
  }
  const { model: _model, ...body } = claude;
  return JSON.stringify({ anthropic_version: vertexAnthropicVersion, ...body });
}

/**
 * The whole Vertex request, given an access token minted for the channel's service account. Claude's beta
 * flags from an Anthropic front client go in the `anthropic-beta` header, as Anthropic's own Vertex SDK sends
 * them to rawPredict (those the channel passes on, see `channelBetas`); the version stays Vertex's, in the body.
 */
export function buildVertexRequest(call: RelayCall, settings: VertexSettings, accessToken: string): UpstreamRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${accessToken}`,
  };
  let claude: ClaudeRequest | undefined;
  if (call.mode === 'chat' && isVertexClaude(call.model)) {
    const request = claudeCallRequest(call);
    claude = request.body;
    if (request.betas.length > 0) headers['anthropic-beta'] = request.betas.join(',');
  }
  return { url: vertexUrl(call, settings), method: 'POST', headers, body: vertexBody(call, claude) };
}
