import { describe, expect, it } from 'vitest';
import {
  chartRange,
  countSetFilters,
  defaultLogFilters,
  HIDE_TEST_KEY,
  rememberedHideTest,
  rememberHideTest,
} from './log-range';

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
  it('counts the filters that differ from the starting ones', () => {
    const defaults = defaultLogFilters(new Date(2026, 5, 1).getTime());
    expect(countSetFilters(defaults, defaults, true)).toBe(0);
    const some = { ...defaults, type: 2, model_name: ' gpt ', token_name: '  ', end_timestamp: 1 };
    expect(countSetFilters(some, defaults, false)).toBe(3);
    const admin = { ...defaults, username: 'alice', channel: '3' };
    expect(countSetFilters(admin, defaults, true)).toBe(2);
    expect(countSetFilters(admin, defaults, false)).toBe(0);
    // Hidden test logs count as set (rows are left out), except when the type filter asks for test logs.
    const hiding = defaultLogFilters(new Date(2026, 5, 1).getTime(), true);
    expect(countSetFilters(hiding, hiding, false)).toBe(1);
    expect(countSetFilters({ ...hiding, type: 5 }, hiding, false)).toBe(1);
    expect(countSetFilters({ ...hiding, type: 2 }, hiding, false)).toBe(2);
  });
  it('remembers the hide-test-logs choice in local storage', () => {
    localStorage.removeItem(HIDE_TEST_KEY);
    expect(rememberedHideTest()).toBe(false);
    rememberHideTest(true);
    expect(localStorage.getItem(HIDE_TEST_KEY)).toBe('true');
    expect(rememberedHideTest()).toBe(true);
    expect(defaultLogFilters(0, rememberedHideTest()).hide_test).toBe(true);
    rememberHideTest(false);
    expect(rememberedHideTest()).toBe(false);
  });
});
