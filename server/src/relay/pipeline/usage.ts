import type { Usage } from '../adaptor.js';

/**
 * one-api's usage fallback: no usage (or a zero total) → the local prompt count and the tokens of the
 * generated text; a total without a prompt count → completion = total − local prompt.
 */
export function completeUsage(
  usage: Usage | undefined,
  countPrompt: () => number,
  countCompletion: () => number,
): Usage {
  if (!usage || usage.total_tokens === 0 || (usage.prompt_tokens === 0 && usage.completion_tokens === 0)) {
    const localPrompt = countPrompt();
    const completion = countCompletion();
    return { prompt_tokens: localPrompt, completion_tokens: completion, total_tokens: localPrompt + completion };
  }
  if (usage.prompt_tokens === 0) {
    const localPrompt = countPrompt();
    const completion = Math.max(0, usage.total_tokens - localPrompt);
    return { prompt_tokens: localPrompt, completion_tokens: completion, total_tokens: usage.total_tokens };
  }
  return usage;
}

/** A text request's price (server-behaviour §5.3): ceil((prompt + completion × completionRatio) × ratio), at least 1 when priced. */
export function textQuota(usage: Usage, ratio: number, completionRatio: number): number {
  if (usage.prompt_tokens + usage.completion_tokens === 0) return 0;
  const quota = Math.ceil((usage.prompt_tokens + usage.completion_tokens * completionRatio) * ratio);
  return ratio !== 0 && quota <= 0 ? 1 : quota;
}

/**
 * The price of the web searches an upstream ran itself: `price` USD per 1,000 searches, in quota units
 * (`quotaPerUnit` per USD), times the group ratio; rounded up like the token price.
 */
export function webSearchQuota(searches: number, price: number, quotaPerUnit: number, groupRatio: number): number {
  return Math.ceil(((searches * price) / 1000) * quotaPerUnit * groupRatio);
}
