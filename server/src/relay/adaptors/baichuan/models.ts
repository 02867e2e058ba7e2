/** Baichuan models as one-api lists them, plus the current generation. */
export const baichuanModels = [
  'Baichuan4',
  'Baichuan3-Turbo',
  'Baichuan3-Turbo-128k',
  'Baichuan2-Turbo',
  'Baichuan2-Turbo-192k',
  'Baichuan-Text-Embedding',
] as const;
