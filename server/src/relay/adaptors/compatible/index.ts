import { openAICompatible } from '../openai-kit/openai-compatible.js';
import { compatibleModels as models } from './models.js';

const chatOnly = ['chat'] as const;

/**
 * The vendors whose API is OpenAI's: only their models and URL quirks differ (providers.md §1.2). Each is
 * settings for the shared OpenAI factory.
 */
export const compatibleAdaptors = {
  ai360: openAICompatible({ id: 'ai360', models: models.ai360 }),
  openrouter: openAICompatible({
    id: 'openrouter',
    models: models.openrouter,
    headers: { 'HTTP-Referer': 'https://github.com/songquanpeng/one-api', 'X-Title': 'One API' },
  }),
  moonshot: openAICompatible({ id: 'moonshot', models: models.moonshot }),
  mistral: openAICompatible({ id: 'mistral', models: models.mistral }),
  groq: openAICompatible({ id: 'groq', models: models.groq }),
  lingyiwanwu: openAICompatible({ id: 'lingyiwanwu', models: models.lingyiwanwu }),
  stepfun: openAICompatible({ id: 'stepfun', models: models.stepfun }),
  deepseek: openAICompatible({ id: 'deepseek', models: models.deepseek }),
  togetherai: openAICompatible({ id: 'togetherai', models: models.togetherai }),
  novita: openAICompatible({
    id: 'novita',
    models: models.novita,
    modes: chatOnly,
    paths: { chat: '/chat/completions' },
  }),
  siliconflow: openAICompatible({ id: 'siliconflow', models: models.siliconflow }),
  xai: openAICompatible({ id: 'xai', models: models.xai }),
  /** Type 50: the base URL already ends in /v1. */
  openaiCompatible: openAICompatible({ id: 'openai-compatible', models: [], stripV1: true }),
  geminiOpenAI: openAICompatible({ id: 'gemini-openai', models: models.geminiOpenAI, stripV1: true }),
};
