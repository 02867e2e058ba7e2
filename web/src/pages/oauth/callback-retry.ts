/** Base of the retry delay: the n-th retry waits n × 2000 ms. */
const CALLBACK_RETRY_DELAY_MS = 2000;

export type CallbackStep = { kind: 'give-up' } | { kind: 'retry'; retry: number; delayMs: number };

/**
 * What a failed third-party callback does next (spec section 4): a failure on entry (retry count 0) shows
 * the failure and goes to /setting without retrying; a failure during retry n retries again after
 * (n + 1) × 2000 ms.
 */
export function decideCallbackStep(retries: number): CallbackStep {
  if (retries === 0) return { kind: 'give-up' };
  const retry = retries + 1;
  return { kind: 'retry', retry, delayMs: retry * CALLBACK_RETRY_DELAY_MS };
}
