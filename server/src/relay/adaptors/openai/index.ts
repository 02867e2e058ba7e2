import { openAICompatible } from '../openai-kit/openai-compatible.js';
import { openAIModels } from './models.js';

/** OpenAI itself and every reseller that mirrors its API. */
export const openai = openAICompatible({ id: 'openai', models: openAIModels });
