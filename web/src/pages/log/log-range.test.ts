import { describe, expect, it } from 'vitest';
import { chartRange, defaultLogFilters } from './log-range';

describe('log range', () => {
  it('defaults from 2024-01-01 to an hour from now', () => {
    const now = new Date(2026, 5, 1, 12, 0, 0).getTime();
    const filters = defaultLogFilters(now);
    expect(new Date(filters.start_timestamp * 1000)).toEqual(new Date(2024, 0, 1));
    expect(filters.end_timestamp).toBe(now / 1000 + 3600);
    expect(filters.type).toBe(0);
  });
  it('charts short ranges by hour and long ones by day, within 800 buckets', () => {
    expect(chartRange(0, 86_400)).toEqual({ start: 0, end: 86_400, granularity: 'hour', clipped: false });
    const long = chartRange(0, 1000 * 86_400);
    expect(long.granularity).toBe('day');
    expect(long.clipped).toBe(true);
    expect((long.end - long.start) / 86_400).toBe(799);
  });
});
