import type { Adaptor } from '../../adaptor.js';
import { openWholeAnswer } from '../openai-kit/whole-answer-stream.js';
import { readErrorBody } from '../openai/response.js';
import { deeplModels } from './models.js';
import { buildDeeplRequest } from './request.js';
import { readDeeplResponse } from './response.js';
import { readDeeplStream } from './stream.js';

/** DeepL (type 38): translation to the language named by the model, as a chat answer. */
export const deepl = {
  id: 'deepl',
  modes: ['chat'],
  models: deeplModels,
  buildRequest: buildDeeplRequest,
  open: (call, tools) => openWholeAnswer(buildDeeplRequest(call), call, tools),
  readResponse: readDeeplResponse,
  readStream: readDeeplStream,
  readError: (response) => readErrorBody(response.status, response.body),
} satisfies Adaptor;
