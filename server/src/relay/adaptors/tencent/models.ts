/** Hunyuan models as one-api lists them. */
export const tencentModels = [
  'hunyuan-lite',
  'hunyuan-standard',
  'hunyuan-standard-256K',
  'hunyuan-pro',
  'hunyuan-turbo',
  'hunyuan-vision',
  'hunyuan-embedding',
] as const;
