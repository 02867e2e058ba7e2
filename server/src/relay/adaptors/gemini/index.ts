import type { Adaptor } from '../../adaptor.js';
import { geminiModels } from './models.js';
import { buildGeminiRequest } from './request.js';
import { readGeminiError, readGeminiResponse } from './response.js';
import { readGeminiStream } from './stream.js';

/** Google Gemini (type 24): generateContent, streamGenerateContent (SSE) and batchEmbedContents. */
export const gemini = {
  id: 'gemini',
  modes: ['chat', 'embeddings'],
  models: geminiModels,
  buildRequest: buildGeminiRequest,
  readResponse: readGeminiResponse,
  readStream: readGeminiStream,
  readError: readGeminiError,
  speaks: (protocol) => protocol === 'gemini',
} satisfies Adaptor;
