import type { Adaptor } from '../../adaptor.js';
import { aiProxyLibraryModels } from './models.js';
import { buildLibraryRequest } from './request.js';
import { readLibraryError, readLibraryResponse } from './response.js';
import { readLibraryStream } from './stream.js';

/** AI Proxy knowledge base: the last question asked within the channel's library, answers with references. */
export const aiProxyLibrary = {
  id: 'aiproxy-library',
  modes: ['chat'],
  models: aiProxyLibraryModels,
  buildRequest: buildLibraryRequest,
  readResponse: readLibraryResponse,
  readStream: readLibraryStream,
  readError: readLibraryError,
} satisfies Adaptor;
