import type { Adaptor } from '../../adaptor.js';
import { anthropicModels } from './models.js';
import { buildAnthropicRequest } from './request.js';
import { readAnthropicError, readAnthropicResponse } from './response.js';
import { readAnthropicStream } from './stream.js';
import { withStructuredAnswer } from './structured-answer.js';

/** Anthropic Claude (type 14): the Messages API. */
export const anthropic = {
  id: 'anthropic',
  modes: ['chat'],
  models: anthropicModels,
  buildRequest: buildAnthropicRequest,
  readResponse: readAnthropicResponse,
  readStream: (body, call) => withStructuredAnswer(readAnthropicStream(body, call), call),
  readError: readAnthropicError,
  speaks: (protocol) => protocol === 'anthropic',
} satisfies Adaptor;
