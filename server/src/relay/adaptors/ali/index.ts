import type { Adaptor } from '../../adaptor.js';
import { finishAliImageTask } from './images.js';
import { aliModels } from './models.js';
import { buildAliRequest } from './request.js';
import { readAliError, readAliResponse } from './response.js';
import { readAliStream } from './stream.js';

/** Alibaba DashScope native API: text generation, embeddings, and images as an async task polled to the end. */
export const ali = {
  id: 'ali',
  modes: ['chat', 'embeddings', 'images'],
  models: aliModels,
  buildRequest: buildAliRequest,
  readResponse: (response, call, tools) =>
    call.mode === 'images' ? finishAliImageTask(response, call, tools.send) : readAliResponse(response, call),
  readStream: readAliStream,
  readError: readAliError,
} satisfies Adaptor;
