import { openAIModels } from '../openai/models.js';

/** The library answers with an OpenAI model, so one-api offers OpenAI's list. */
export const aiProxyLibraryModels = openAIModels;
