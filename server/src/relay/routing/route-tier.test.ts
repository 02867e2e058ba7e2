import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ChannelRow } from '../../db/tables.js';
import type { RoutedChannel } from './channel-router.js';
import { RouteTier } from './route-tier.js';

/** A channel whose weight counts how often it is read: the work a draw does, counted rather than timed. */
function countedChannel(id: number, weight: number, reads: { count: number }): RoutedChannel {
  return {
    row: { id } as ChannelRow,
    get weight() {
      reads.count += 1;
      return weight;
    },
  } as RoutedChannel;
}

describe('a tier of 2,000 channels', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('draws without walking its channels: their weights are summed once per change, not once per call', () => {
    const reads = { count: 0 };
    const tier = new RouteTier(0);
    for (let id = 1; id <= 2000; id++) tier.add(countedChannel(id, 1 + (id % 3), reads));
    const none = new Set<number>();
    const drawn = new Set<number>();
    for (let call = 0; call < 1000; call++) drawn.add(tier.pick(none)!.row.id);
    expect(reads.count).toBe(2000);
    expect(drawn.size).toBeGreaterThan(100);

    // A channel written (here: added) costs one more sum at the next draw, and nothing before it.
    tier.add(countedChannel(2001, 1, reads));
    expect(reads.count).toBe(2000);
    for (let call = 0; call < 1000; call++) tier.pick(none);
    expect(reads.count).toBe(4001);
  });

  test('a retry that excludes one of its channels draws among the others', () => {
    const reads = { count: 0 };
    const tier = new RouteTier(0);
    for (let id = 1; id <= 2000; id++) tier.add(countedChannel(id, 1, reads));
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(tier.pick(new Set([1]))?.row.id).toBe(2);
    expect(tier.pick(new Set(Array.from({ length: 2000 }, (_, index) => index + 1)))).toBeUndefined();
  });
});
