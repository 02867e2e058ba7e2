import { openAILike } from '../chat-kit/openai-like.js';
import { baichuanModels } from './models.js';
import { baichuanBody } from './request.js';

/** Baichuan: OpenAI's protocol, but only its own body fields and string contents. */
export const baichuan = openAILike({
  id: 'baichuan',
  models: baichuanModels,
  modes: ['chat', 'embeddings'],
  rewriteBody: baichuanBody,
});
