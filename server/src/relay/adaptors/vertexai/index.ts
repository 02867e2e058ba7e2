import type { Adaptor, RelayCall } from '../../adaptor.js';
import { vertexAccessToken } from './access-token.js';
import { vertexModels } from './models.js';
import { buildVertexRequest } from './request.js';
import { readVertexError, readVertexResponse } from './response.js';
import { readVertexSettings } from './settings.js';
import { readVertexStream } from './stream.js';

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
  readStream: readVertexStream,
  readError: readVertexError,
} satisfies Adaptor;
