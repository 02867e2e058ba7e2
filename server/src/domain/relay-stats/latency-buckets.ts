/**
 * Latency histogram of the relay outcome table: a fixed set of upper bounds (ms), so that a median can be
 * estimated with plain column sums on every database.
 */
export const LATENCY_BOUNDS_MS = [250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000] as const;

export const LATENCY_COLUMNS = [
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

/** Index of the histogram bucket a latency falls into. */
export function latencyBucketIndex(elapsedMs: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => elapsedMs <= bound);
  return index === -1 ? LATENCY_BOUNDS_MS.length : index;
}

/**
 * Median estimated from bucket counts: the bucket holding the middle observation, interpolated linearly
 * between its bounds (the open last bucket answers its lower bound). Null without observations.
 */
export function medianFromHistogram(counts: readonly number[]): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const middle = total / 2;
  let seen = 0;
  for (let index = 0; index < counts.length; index += 1) {
    const count = counts[index] ?? 0;
    if (count > 0 && seen + count >= middle) {
      const lower = index === 0 ? 0 : (LATENCY_BOUNDS_MS[index - 1] ?? 0);
      const upper = LATENCY_BOUNDS_MS[index];
      if (upper === undefined) return lower;
      return Math.round(lower + ((middle - seen) / count) * (upper - lower));
    }
    seen += count;
  }
  return null;
}
