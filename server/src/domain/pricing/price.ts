import type { ListPrice, PriceSource } from '@modelgate/wire';

/**
 * one-api's price: quota per token = model ratio × group ratio, output tokens counted × completion ratio.
 * Kept as such (not turned into dollars) so a ratio charges exactly what one-api's formula charges.
 */
export interface RatioPrice {
  model_ratio: number;
  completion_ratio: number;
  /** US$ per 1,000 searches an upstream runs itself (the WebSearchPrice option). */
  web_searches_per_1000: number;
}

export type Price = { kind: 'list'; list: ListPrice } | { kind: 'ratio'; ratio: RatioPrice };

/** The price a call of a model is charged, and where it comes from. */
export interface ResolvedPrice {
  model: string;
  source: Exclude<PriceSource, 'missing'>;
  price: Price;
  /** An admin's price for the caller's group: it replaces the group ratio. */
  groupPrice: boolean;
  /** The price's origin in words: the option, the admin's note, or the catalogue entry and its page. */
  reference: string;
}

/**
 * What one call used, each token class counted once (the classes partition the prompt): `input` is the
 * uncached text of the prompt, without the cache reads and writes and the audio and image tokens counted
 * in their own fields. `output` includes reasoning tokens.
 */
export interface CallUsage {
  input: number;
  cache_read?: number;
  /** Written to a 5-minute cache, or the vendor's only kind of cache write. */
  cache_write?: number;
  cache_write_1h?: number;
  input_audio?: number;
  input_image?: number;
  output: number;
  output_audio?: number;
  output_image?: number;
  images?: number;
  audio_seconds?: number;
  web_searches?: number;
  /** Calls charged at the per-call price: 1 when absent. */
  calls?: number;
}

export const inputClasses = [
  'input',
  'cache_read',
  'cache_write',
  'cache_write_1h',
  'input_audio',
  'input_image',
] as const;
export const outputClasses = ['output', 'output_audio', 'output_image'] as const;
export type TokenClass = (typeof inputClasses)[number] | (typeof outputClasses)[number];

/** The prompt's size, which chooses a context tier: every input class. */
export const promptTokens = (usage: CallUsage) =>
  inputClasses.reduce((sum, tokenClass) => sum + (usage[tokenClass] ?? 0), 0);
