/** Ollama's built-in model list, as one-api has it. */
export const ollamaModels = [
  'codellama:7b-instruct',
  'llama2:7b',
  'llama2:latest',
  'llama3:latest',
  'phi3:latest',
  'qwen:0.5b-chat',
  'qwen:7b',
] as const;
