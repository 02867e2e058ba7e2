import type { Adaptor } from '../../adaptor.js';
import { cozeModels } from './models.js';
import { buildCozeRequest } from './request.js';
import { readCozeError, readCozeResponse } from './response.js';
import { readCozeStream } from './stream.js';

/** Coze (type 34): Chat v3; the model name is the bot id. */
export const coze = {
  id: 'coze',
  modes: ['chat'],
  models: cozeModels,
  buildRequest: buildCozeRequest,
  readResponse: readCozeResponse,
  readStream: readCozeStream,
  readError: readCozeError,
} satisfies Adaptor;
