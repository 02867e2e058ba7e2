import { describe, expect, test } from 'vitest';
import { latencyBucketIndex, medianFromHistogram } from './latency-buckets.js';
import { RelayStatsAggregator } from './relay-stats.aggregator.js';

describe('latency histogram', () => {
  test('buckets by upper bound', () => {
    expect(latencyBucketIndex(0)).toBe(0);
    expect(latencyBucketIndex(250)).toBe(0);
    expect(latencyBucketIndex(251)).toBe(1);
    expect(latencyBucketIndex(64_000)).toBe(8);
    expect(latencyBucketIndex(100_000)).toBe(9);
  });

  test('estimates the median inside the middle bucket', () => {
    expect(medianFromHistogram([0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toBeNull();
    // 4 observations in (500, 1000]: the middle (2nd) sits half way.
    expect(medianFromHistogram([0, 0, 4, 0, 0, 0, 0, 0, 0, 0])).toBe(750);
    expect(medianFromHistogram([3, 0, 0, 0, 0, 0, 0, 0, 0, 1])).toBe(167);
    expect(medianFromHistogram([0, 0, 0, 0, 0, 0, 0, 0, 0, 2])).toBe(64_000);
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
    expect(first?.latency).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
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
        latency: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      },
    ]);
  });
});
