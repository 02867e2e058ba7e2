import type { Adaptor } from '../../adaptor.js';
import { readErrorBody } from '../openai/response.js';
import { cohereModels } from './models.js';
import { buildCohereRequest } from './request.js';
import { readCohereResponse } from './response.js';
import { readCohereStream } from './stream.js';

/** Cohere (type 35): Chat API v1. Its errors are `{"message": …}`, which the common reader understands. */
export const cohere = {
  id: 'cohere',
  modes: ['chat'],
  models: cohereModels,
  buildRequest: buildCohereRequest,
  readResponse: readCohereResponse,
  readStream: readCohereStream,
  readError: (response) => readErrorBody(response.status, response.body),
} satisfies Adaptor;
