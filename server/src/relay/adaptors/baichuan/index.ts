import { openAICompatible } from '../openai-kit/openai-compatible.js';
import { baichuanModels } from './models.js';
import { baichuanBody } from './request.js';

/** Baichuan: OpenAI's protocol, but only its own body fields and string contents. */
export const baichuan = openAICompatible({
  id: 'baichuan',
  models: baichuanModels,
  modes: ['chat', 'embeddings'],
  rewriteBody: baichuanBody,
});
