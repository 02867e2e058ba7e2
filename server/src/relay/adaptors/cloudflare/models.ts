/** Cloudflare Workers AI's built-in model list (one-api's, text models). */
export const cloudflareModels = [
  '@cf/meta/llama-3.1-8b-instruct', '@cf/meta/llama-3.1-70b-instruct', '@cf/meta/llama-3.2-3b-instruct', '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
  '@cf/meta/llama-3-8b-instruct', '@cf/meta/llama-2-7b-chat-fp16', '@cf/meta/llama-2-7b-chat-int8',
  '@cf/mistral/mistral-7b-instruct-v0.1', '@hf/mistral/mistral-7b-instruct-v0.2',
  '@cf/google/gemma-7b-it-lora', '@hf/google/gemma-7b-it', '@cf/qwen/qwen1.5-14b-chat-awq', '@cf/qwen/qwen1.5-7b-chat-awq',
  '@cf/deepseek-ai/deepseek-math-7b-instruct', '@cf/deepseek-ai/deepseek-r1-distill-qwen-32b', '@cf/microsoft/phi-2',
  '@cf/openchat/openchat-3.5-0106', '@cf/tinyllama/tinyllama-1.1b-chat-v1.0', '@hf/thebloke/deepseek-coder-6.7b-instruct-awq',
  '@cf/baai/bge-base-en-v1.5', '@cf/baai/bge-large-en-v1.5', '@cf/baai/bge-small-en-v1.5', '@cf/baai/bge-m3',
] as const;
