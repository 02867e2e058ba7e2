/** Bailian (DashScope compatible mode) models as one-api lists them. */
export const aliBailianModels = [
  'qwen-turbo',
  'qwen-plus',
  'qwen-max',
  'qwen-long',
  'qwen-coder-plus',
  'qwen-math-plus',
  'qwq-32b-preview',
  'qwen-vl-max',
  'deepseek-v3',
  'deepseek-r1',
  'text-embedding-v3',
] as const;
