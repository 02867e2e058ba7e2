import { openAICompatible, withStreamUsage } from '../openai-kit/openai-compatible.js';
import { aliBailianModels } from './models.js';

/** Alibaba Bailian: DashScope's OpenAI-compatible mode under `/compatible-mode/v1`; stream usage is asked for. */
export const aliBailian = openAICompatible({
  id: 'ali-bailian',
  models: aliBailianModels,
  modes: ['chat', 'embeddings'],
  paths: { chat: '/compatible-mode/v1/chat/completions', embeddings: '/compatible-mode/v1/embeddings' },
  rewriteBody: withStreamUsage,
});
