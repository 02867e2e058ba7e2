/** Chart colours (antd's palette); a model keeps its colour for every viewer and every filter. */
export const MODEL_PALETTE = [
  '#1677ff',
  '#52c41a',
  '#faad14',
  '#eb2f96',
  '#13c2c2',
  '#722ed1',
  '#fa541c',
  '#2f54eb',
  '#a0d911',
  '#8c8c8c',
] as const;

/**
 * The colour of a model: a stable hash (FNV-1a, 32 bits) of its name into the palette, so gpt-4o is the same
 * colour for root and alice whatever other models their charts hold (issue 33 point 8: by position it was not).
 */
export function modelColor(model: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < model.length; index += 1) {
    hash ^= model.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return MODEL_PALETTE[hash % MODEL_PALETTE.length]!;
}
