/** Replicate's built-in model list (one-api's): image models (images mode) and language models (chat). */
export const replicateImageModels = [
  'black-forest-labs/flux-1.1-pro',
  'black-forest-labs/flux-1.1-pro-ultra',
  'black-forest-labs/flux-dev',
  'black-forest-labs/flux-pro',
  'black-forest-labs/flux-schnell',
  'ideogram-ai/ideogram-v2',
  'ideogram-ai/ideogram-v2-turbo',
  'recraft-ai/recraft-v3',
  'stability-ai/stable-diffusion-3',
  'stability-ai/stable-diffusion-3.5-large',
  'stability-ai/stable-diffusion-3.5-large-turbo',
] as const;

export const replicateLanguageModels = [
  'ibm-granite/granite-20b-code-instruct-8k',
  'ibm-granite/granite-3.0-2b-instruct',
  'ibm-granite/granite-3.0-8b-instruct',
  'meta/llama-2-13b',
  'meta/llama-2-13b-chat',
  'meta/llama-2-70b',
  'meta/llama-2-70b-chat',
  'meta/llama-2-7b',
  'meta/llama-2-7b-chat',
  'meta/meta-llama-3.1-405b-instruct',
  'meta/meta-llama-3-70b',
  'meta/meta-llama-3-70b-instruct',
  'meta/meta-llama-3-8b',
  'meta/meta-llama-3-8b-instruct',
  'mistralai/mistral-7b-instruct-v0.2',
  'mistralai/mistral-7b-v0.1',
] as const;

export const replicateModels = [...replicateImageModels, ...replicateLanguageModels];
