/** Zhipu models as one-api lists them; `glm-*`, embeddings and cogview use v4, the rest the legacy v3 API. */
export const zhipuModels = [
  'chatglm_turbo',
  'chatglm_pro',
  'chatglm_std',
  'chatglm_lite',
  'glm-4',
  'glm-4v',
  'glm-3-turbo',
  'glm-4-plus',
  'glm-4-0520',
  'glm-4-air',
  'glm-4-airx',
  'glm-4-long',
  'glm-4-flash',
  'glm-4v-plus',
  'glm-4v-flash',
  'embedding-2',
  'embedding-3',
  'cogview-3',
  'cogview-3-plus',
] as const;

/** Which API a call goes to (one-api: v3 only for chat models that are not `glm-*`). */
export function zhipuApiVersion(model: string, mode: string): 'v3' | 'v4' {
  if (mode !== 'chat') return 'v4';
  return model.startsWith('glm-') ? 'v4' : 'v3';
}
