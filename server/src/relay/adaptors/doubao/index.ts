import { openAICompatible, withStreamUsage } from '../openai-kit/openai-compatible.js';
import { doubaoModels } from './models.js';

/** Doubao (Volcengine Ark): OpenAI's protocol under `/api/v3`; stream usage only when asked for, so it is asked for. */
export const doubao = openAICompatible({
  id: 'doubao',
  models: doubaoModels,
  modes: ['chat', 'embeddings'],
  paths: { chat: '/api/v3/chat/completions', embeddings: '/api/v3/embeddings' },
  rewriteBody: withStreamUsage,
});
