/**
 * Built-in model lists of the upstreams whose adaptor is not written yet (one-api's lists), so that the
 * console's model catalogue and channel form already know them. Each moves into its adaptor's models.ts.
 */
export const pendingModels: Record<string, readonly string[]> = {
  anthropic: [
    'claude-instant-1.2', 'claude-2.0', 'claude-2.1', 'claude-3-haiku-20240307', 'claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest',
    'claude-3-sonnet-20240229', 'claude-3-opus-20240229', 'claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-latest',
  ],
  baidu: ['ERNIE-4.0-8K', 'ERNIE-3.5-8K', 'ERNIE-3.5-8K-0205', 'ERNIE-3.5-8K-1222', 'ERNIE-Bot-8K', 'ERNIE-3.5-4K-0205', 'ERNIE-Speed-8K', 'ERNIE-Speed-128K', 'ERNIE-Lite-8K-0922', 'ERNIE-Lite-8K-0308', 'ERNIE-Tiny-8K', 'BLOOMZ-7B', 'Embedding-V1', 'bge-large-zh', 'bge-large-en', 'tao-8k'],
  palm: ['PaLM-2'],
  zhipu: ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite', 'glm-4', 'glm-4v', 'glm-3-turbo', 'embedding-2', 'cogview-3'],
  ali: ['qwen-turbo', 'qwen-plus', 'qwen-max', 'qwen-max-longcontext', 'text-embedding-v1', 'ali-stable-diffusion-xl', 'ali-stable-diffusion-v1.5', 'wanx-v1'],
  xunfei: ['Spark-Lite', 'Spark-Pro', 'Spark-Pro-128K', 'Spark-Max', 'Spark-Max-32K', 'Spark-4.0-Ultra'],
  aiproxyLibrary: ['gpt-3.5-turbo'],
  tencent: ['hunyuan-lite', 'hunyuan-standard', 'hunyuan-standard-256K', 'hunyuan-pro', 'hunyuan-vision', 'hunyuan-embedding'],
  gemini: ['gemini-pro', 'gemini-1.0-pro', 'gemini-1.5-flash', 'gemini-1.5-pro', 'gemini-2.0-flash-exp', 'gemini-2.0-flash-thinking-exp', 'text-embedding-004', 'aqa'],
  ollama: ['codellama:7b-instruct', 'llama2:7b', 'llama2:latest', 'llama3:latest', 'phi3:latest', 'qwen:0.5b-chat', 'qwen:7b'],
  aws: ['claude-instant-1.2', 'claude-2.0', 'claude-2.1', 'claude-3-haiku-20240307', 'claude-3-sonnet-20240229', 'claude-3-opus-20240229', 'claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022', 'claude-3-5-haiku-20241022', 'llama3-8b-8192', 'llama3-70b-8192'],
  coze: [],
  cohere: ['command', 'command-nightly', 'command-light', 'command-light-nightly', 'command-r', 'command-r-plus'],
  cloudflare: ['@cf/meta/llama-3.1-8b-instruct', '@cf/meta/llama-2-7b-chat-fp16', '@cf/mistral/mistral-7b-instruct-v0.1', '@cf/qwen/qwen1.5-7b-chat-awq'],
  deepl: ['deepl-zh', 'deepl-en', 'deepl-ja'],
  vertexai: ['claude-3-haiku@20240307', 'claude-3-sonnet@20240229', 'claude-3-opus@20240229', 'claude-3-5-sonnet@20240620', 'gemini-1.5-pro-001', 'gemini-1.5-flash-001', 'gemini-pro', 'gemini-pro-vision'],
  replicate: ['black-forest-labs/flux-schnell', 'black-forest-labs/flux-dev', 'black-forest-labs/flux-pro', 'stability-ai/stable-diffusion-3', 'meta/meta-llama-3-70b-instruct', 'meta/meta-llama-3-8b-instruct'],
};
