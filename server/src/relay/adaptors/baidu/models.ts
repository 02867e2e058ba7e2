/** Baidu v1 models as one-api lists them, and the wenxinworkshop endpoint each one calls. */
export const baiduModels = [
  'ERNIE-4.0-8K',
  'ERNIE-3.5-8K',
  'ERNIE-3.5-8K-0205',
  'ERNIE-3.5-8K-1222',
  'ERNIE-Bot-8K',
  'ERNIE-3.5-4K-0205',
  'ERNIE-Speed-8K',
  'ERNIE-Speed-128K',
  'ERNIE-Lite-8K-0922',
  'ERNIE-Lite-8K-0308',
  'ERNIE-Tiny-8K',
  'BLOOMZ-7B',
  'Embedding-V1',
  'bge-large-zh',
  'bge-large-en',
  'tao-8k',
] as const;

const endpoints: Record<string, string> = {
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-4.0': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot': 'completions',
  'ERNIE-3.5-8K-0205': 'ernie-3.5-8k-0205',
  'ERNIE-3.5-8K-1222': 'ernie-3.5-8k-1222',
  'ERNIE-3.5-4K-0205': 'ernie-3.5-4k-0205',
  'ERNIE-Bot-8K': 'ernie_bot_8k',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed': 'ernie_speed',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Lite-8K-0308': 'ernie-lite-8k',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'BLOOMZ-7B': 'bloomz_7b1',
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

/** The endpoint of a model; unknown models (custom deployments) use the lower-cased name, as one-api does. */
export const baiduEndpoint = (model: string) => endpoints[model] ?? model.toLowerCase();

/** Embedding models live under `embeddings/`, the rest under `chat/`. */
export const isBaiduEmbeddingModel = (model: string) => /^(Embedding|bge-large|tao-8k)/i.test(model);
