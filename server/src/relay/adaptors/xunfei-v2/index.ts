import { openAICompatible } from '../openai-kit/openai-compatible.js';
import { xunfeiV2Models } from './models.js';
import { sparkHttpError } from './response.js';

/** iFlytek Spark over HTTP: OpenAI's format with the APIPassword as Bearer key and a `code` in every answer. */
export const xunfeiV2 = openAICompatible({
  id: 'xunfei-v2',
  models: xunfeiV2Models,
  modes: ['chat'],
  findError: sparkHttpError,
});
