import { describe, expect, test } from 'vitest';
import { latencyBucketIndex, medianFromHistogram } from './latency-buckets.js';
import { RelayStatsAggregator } from './relay-stats.aggregator.js';

describe('latency histogram', () => {
  test('buckets by upper bound', () => {
    expect(latencyBucketIndex(0)).toBe(0);
    expect(latencyBucketIndex(3)).toBe(0);
    expect(latencyBucketIndex(10)).toBe(0);
    expect(latencyBucketIndex(11)).toBe(1);
    expect(latencyBucketIndex(250)).toBe(4);
    expect(latencyBucketIndex(251)).toBe(5);
    expect(latencyBucketIndex(64_000)).toBe(12);
    expect(latencyBucketIndex(100_000)).toBe(13);
  });

  test('answers the bucket holding the median, never a point inside it', () => {
    const counts = (entries: Record<number, number>) => Array.from({ length: 14 }, (_, index) => entries[index] ?? 0);
    expect(medianFromHistogram(counts({}))).toBeNull();
    // Calls of 3–8 ms (issue 33): "at most 10 ms", not the 125 ms midpoint of a 0–250 ms bucket.
    expect(medianFromHistogram(counts({ 0: 5 }))).toEqual({ above_ms: 0, at_most_ms: 10 });
    expect(medianFromHistogram(counts({ 6: 4 }))).toEqual({ above_ms: 500, at_most_ms: 1000 });
    expect(medianFromHistogram(counts({ 0: 1, 3: 3, 13: 1 }))).toEqual({ above_ms: 50, at_most_ms: 100 });
    expect(medianFromHistogram(counts({ 13: 2 }))).toEqual({ above_ms: 64_000, at_most_ms: null });
  });
});

describe('RelayStatsAggregator', () => {
  test('counts per minute, model and channel; latency only for successes', () => {
    const aggregator = new RelayStatsAggregator();
    const at = Date.UTC(2026, 0, 1, 10, 0, 30);
    aggregator.record({ model: 'm', channelId: 1, success: true, elapsedMs: 300 }, at);
    aggregator.record({ model: 'm', channelId: 1, success: false, elapsedMs: 9000 }, at + 10_000);
    aggregator.record({ model: 'm', channelId: 2, success: true, elapsedMs: 100 }, at);
    aggregator.record({ model: 'm', channelId: 1, success: true, elapsedMs: 100 }, at + 60_000);
    const cells = aggregator.drain();
    expect(cells).toHaveLength(3);
    const first = cells.find(
      (cell) => cell.channelId === 1 && cell.bucketStart === Date.UTC(2026, 0, 1, 10, 0, 0) / 1000,
    );
    expect(first).toMatchObject({ successCount: 1, failureCount: 1 });
    expect(first?.latency).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(aggregator.size).toBe(0);
  });

  test('restores cells after a failed flush, merged with newer counts', () => {
    const aggregator = new RelayStatsAggregator();
    const at = Date.UTC(2026, 0, 1, 10, 0, 0);
    aggregator.record({ model: 'm', channelId: 1, success: true, elapsedMs: 10 }, at);
    const drained = aggregator.drain();
    aggregator.record({ model: 'm', channelId: 1, success: false, elapsedMs: 10 }, at);
    aggregator.restore(drained);
    expect(aggregator.drain()).toEqual([
      {
        bucketStart: at / 1000,
        model: 'm',
        channelId: 1,
        successCount: 1,
        failureCount: 1,
        latency: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      },
    ]);
  });
});
