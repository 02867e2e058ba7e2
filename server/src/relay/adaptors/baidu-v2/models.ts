/** Qianfan v2 models as one-api lists them (sent lower-cased: v2 model ids are lower case). */
export const baiduV2Models = [
  'ERNIE-4.0-8K',
  'ERNIE-4.0-Turbo-8K',
  'ERNIE-3.5-8K',
  'ERNIE-3.5-128K',
  'ERNIE-Speed-8K',
  'ERNIE-Speed-128K',
  'ERNIE-Lite-8K',
  'ERNIE-Tiny-8K',
  'deepseek-v3',
  'deepseek-r1',
] as const;
