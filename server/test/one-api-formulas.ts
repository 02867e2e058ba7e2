import type { Usage } from '../src/relay/adaptor.js';

/**
 * one-api's text price (server-behaviour §5.3): ceil((prompt + completion × completionRatio) × ratio), at least
 * 1 when priced. The relay charged this before the price model; a ratio price must still charge it to the unit
 * (decision 0026), so tests keep it as the reference.
 */
export function textQuota(usage: Usage, ratio: number, completionRatio: number): number {
  if (usage.prompt_tokens + usage.completion_tokens === 0) return 0;
  const quota = Math.ceil((usage.prompt_tokens + usage.completion_tokens * completionRatio) * ratio);
  return ratio !== 0 && quota <= 0 ? 1 : quota;
}

/**
 * ModelGate's web-search charge before the price model: `price` US$ per 1,000 searches in quota units
 * (`quotaPerUnit` per US$), times the group ratio, rounded up.
 */
export function webSearchQuota(searches: number, price: number, quotaPerUnit: number, groupRatio: number): number {
  return Math.ceil(((searches * price) / 1000) * quotaPerUnit * groupRatio);
}
