import type { Adaptor } from '../../adaptor.js';
import { openWholeAnswer } from '../openai-kit/whole-answer-stream.js';
import { readGeminiError } from '../gemini/response.js';
import { palmModels } from './models.js';
import { buildPalmRequest } from './request.js';
import { readPalmResponse } from './response.js';
import { readPalmStream } from './stream.js';

/** Google PaLM 2 (type 11): generateMessage; streams are the whole answer replayed. */
export const palm = {
  id: 'palm',
  modes: ['chat'],
  models: palmModels,
  buildRequest: buildPalmRequest,
  open: (call, tools) => openWholeAnswer(buildPalmRequest(call), call, tools),
  readResponse: readPalmResponse,
  readStream: readPalmStream,
  readError: readGeminiError,
} satisfies Adaptor;
