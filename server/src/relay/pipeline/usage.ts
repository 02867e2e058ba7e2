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
