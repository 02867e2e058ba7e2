/**
 * Latency histogram of the relay outcome table: a fixed set of upper bounds (ms), so that the median's bucket
 * can be found with plain column sums on every database. Fine at the low end (a relay's own overhead is a few
 * milliseconds), doubling above 250 ms.
 */
export const LATENCY_BOUNDS_MS = [10, 25, 50, 100, 250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000] as const;

export const LATENCY_COLUMNS = [
  'latency_le_10',
  'latency_le_25',
  'latency_le_50',
  'latency_le_100',
  'latency_le_250',
  'latency_le_500',
  'latency_le_1000',
  'latency_le_2000',
  'latency_le_4000',
  'latency_le_8000',
  'latency_le_16000',
  'latency_le_32000',
  'latency_le_64000',
  'latency_gt_64000',
] as const;

/** Index of the histogram bucket a latency falls into (on the relay path: a plain loop, no allocation). */
export function latencyBucketIndex(elapsedMs: number): number {
  let index = 0;
  while (index < LATENCY_BOUNDS_MS.length && elapsedMs > LATENCY_BOUNDS_MS[index]!) index += 1;
  return index;
}

/** The bucket holding a median: more than `above_ms`, at most `at_most_ms` (null: beyond the last bound). */
export interface LatencyRange {
  above_ms: number;
  at_most_ms: number | null;
}

/**
 * The bucket holding the median observation, as its bounds: the histogram says no more than that, so no
 * point inside the bucket is made up. Null without observations.
 */
export function medianFromHistogram(counts: readonly number[]): LatencyRange | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const middle = total / 2;
  let seen = 0;
  for (let index = 0; index < counts.length; index += 1) {
    const count = counts[index] ?? 0;
    if (count > 0 && seen + count >= middle) {
      return {
        above_ms: index === 0 ? 0 : LATENCY_BOUNDS_MS[index - 1]!,
        at_most_ms: LATENCY_BOUNDS_MS[index] ?? null,
      };
    }
    seen += count;
  }
  return null;
}
