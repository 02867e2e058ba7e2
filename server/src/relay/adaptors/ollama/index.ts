import type { Adaptor } from '../../adaptor.js';
import { ollamaModels } from './models.js';
import { buildOllamaRequest } from './request.js';
import { readOllamaError, readOllamaResponse } from './response.js';
import { readOllamaStream } from './stream.js';

/** Ollama (type 30): the native /api/chat and /api/embed. */
export const ollama = {
  id: 'ollama',
  modes: ['chat', 'embeddings'],
  models: ollamaModels,
  buildRequest: buildOllamaRequest,
  readResponse: readOllamaResponse,
  readStream: readOllamaStream,
  readError: readOllamaError,
} satisfies Adaptor;
