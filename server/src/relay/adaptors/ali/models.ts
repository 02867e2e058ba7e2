/** DashScope native models as one-api lists them (text, embeddings, images). */
export const aliModels = [
  'qwen-turbo', 'qwen-turbo-latest', 'qwen-plus', 'qwen-plus-latest', 'qwen-max', 'qwen-max-latest', 'qwen-max-longcontext',
  'qwen-long', 'qwen-math-plus', 'qwen-math-turbo', 'qwen-coder-plus', 'qwen-coder-turbo', 'qwq-32b-preview',
  'qwen2.5-72b-instruct', 'qwen2.5-32b-instruct', 'qwen2.5-14b-instruct', 'qwen2.5-7b-instruct',
  'qwen2-72b-instruct', 'qwen2-7b-instruct', 'qwen1.5-110b-chat', 'qwen1.5-72b-chat',
  'deepseek-r1', 'deepseek-v3',
  'text-embedding-v1', 'text-embedding-v2', 'text-embedding-v3',
  'ali-stable-diffusion-xl', 'ali-stable-diffusion-v1.5', 'wanx-v1',
] as const;
