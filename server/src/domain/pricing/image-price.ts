/** one-api's size factors per image model (server-behaviour §4.11, §5.5). */
const sizeFactors: Record<string, Record<string, number>> = {
  'dall-e-2': { '256x256': 1, '512x512': 1.125, '1024x1024': 1.25 },
  'dall-e-3': { '1024x1024': 1, '1024x1792': 2, '1792x1024': 2 },
};

const promptLimits: Record<string, number> = { 'dall-e-2': 1000, 'dall-e-3': 4000, 'cogview-3': 833 };
const countLimits: Record<string, [number, number]> = {
  'dall-e-2': [1, 10],
  'dall-e-3': [1, 1],
  'cogview-3': [1, 1],
  'step-1x-medium': [1, 1],
};

/** Why an image request is refused (one-api's messages), or null. */
export function imageRequestProblem(model: string, prompt: string, size: string, count: number): string | null {
  if (!prompt) return 'prompt is required';
  const sizes = sizeFactors[model];
  if (sizes && !(size in sizes)) return 'size not supported for this image model';
  if (prompt.length > (promptLimits[model] ?? 4000)) return 'prompt is too long';
  const [minimum, maximum] = countLimits[model] ?? [1, 10];
  if (!Number.isInteger(count) || count < minimum || count > maximum) return 'invalid value of n';
  return null;
}

/** one-api's price factor of one image: by size, and for dall-e-3 by quality. */
export function imageFactor(model: string, size: string, quality: string): number {
  const factor = sizeFactors[model]?.[size] ?? 1;
  if (model === 'dall-e-3' && quality === 'hd') return factor * (size === '1024x1024' ? 2 : 1.5);
  return factor;
}

/** Price of one request: floor(ratio × group ratio × size/quality factor × 1000) × n. */
export function imagePrice(model: string, size: string, quality: string, count: number, ratio: number): number {
  return Math.floor(ratio * imageFactor(model, size, quality) * 1000) * count;
}
