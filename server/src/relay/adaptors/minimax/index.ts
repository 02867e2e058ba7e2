import { openAICompatible } from '../openai-kit/openai-compatible.js';
import { minimaxModels } from './models.js';
import { minimaxChunk, minimaxError } from './response.js';

/** MiniMax: OpenAI's format at `/v1/text/chatcompletion_v2`, with errors in `base_resp` (often HTTP 200). */
export const minimax = openAICompatible({
  id: 'minimax',
  models: minimaxModels,
  modes: ['chat'],
  paths: { chat: '/v1/text/chatcompletion_v2' },
  findError: minimaxError,
  rewriteChunk: minimaxChunk,
});
