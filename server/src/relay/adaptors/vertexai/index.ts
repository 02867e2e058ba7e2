import type { Adaptor, RelayCall } from '../../adaptor.js';
import { vertexAccessToken } from './access-token.js';
import { isVertexClaude, vertexModels } from './models.js';
import { buildVertexRequest } from './request.js';
import { readVertexError, readVertexResponse } from './response.js';
import { readVertexSettings } from './settings.js';
import { readVertexStream } from './stream.js';
import { withStructuredAnswer } from '../anthropic/structured-answer.js';

/** Mints (or reuses) the service account's access token, then builds the prediction request. */
async function buildRequest(call: RelayCall) {
  const settings = readVertexSettings(call.channel);
  const token = await vertexAccessToken(settings.serviceAccount, call.channel.baseUrl || undefined);
  return buildVertexRequest(call, settings, token);
}

/** Google Vertex AI (type 42): Gemini (publisher google) and Claude (publisher anthropic) models. */
export const vertexai = {
  id: 'vertexai',
  modes: ['chat', 'embeddings'],
  models: vertexModels,
  buildRequest,
  readResponse: readVertexResponse,
  readStream: (body, call) => withStructuredAnswer(readVertexStream(body, call), call),
  readError: readVertexError,
  // Claude models on Vertex speak Anthropic's Messages API, the others Gemini's.
  speaks: (protocol, _channel, model) => protocol === (isVertexClaude(model) ? 'anthropic' : 'gemini'),
} satisfies Adaptor;
