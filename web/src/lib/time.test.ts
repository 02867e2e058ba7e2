import { describe, expect, it } from 'vitest';
import { formatTimestamp } from './time';

describe('formatTimestamp', () => {
  it('formats seconds as YYYY-MM-DD HH:mm:ss in local time', () => {
    const seconds = new Date(2024, 0, 2, 3, 4, 5).getTime() / 1000;
    expect(formatTimestamp(seconds)).toBe('2024-01-02 03:04:05');
  });

  it('pads every field', () => {
    const seconds = new Date(2025, 10, 21, 23, 59, 9).getTime() / 1000;
    expect(formatTimestamp(seconds)).toBe('2025-11-21 23:59:09');
  });

  it('returns null for unusable values so the caller shows the invalid time label', () => {
    expect(formatTimestamp(Number.NaN)).toBeNull();
    expect(formatTimestamp(Number.POSITIVE_INFINITY)).toBeNull();
    expect(formatTimestamp(1e20)).toBeNull();
    expect(formatTimestamp(undefined)).toBeNull();
    expect(formatTimestamp(null)).toBeNull();
  });
});
