import { describe, expect, it } from 'vitest';
import { dollarsToQuota, expiryFromPick, quotaToDollars, QUOTA_PICKS_DOLLARS } from './token-quick-picks';

describe('token quick picks', () => {
  const now = 1_700_000_000;
  it('sets the expiry from now', () => {
    expect(expiryFromPick('never', now)).toBe(-1);
    expect(expiryFromPick('month', now)).toBe(now + 2_592_000);
    expect(expiryFromPick('day', now)).toBe(now + 86_400);
    expect(expiryFromPick('hour', now)).toBe(now + 3_600);
    expect(expiryFromPick('minute', now)).toBe(now + 60);
  });
  it('offers unlimited and the spec dollar amounts', () => {
    expect(QUOTA_PICKS_DOLLARS).toEqual([null, 5, 20, 50, 100, 200, 500]);
  });
  it('converts dollars and quota at 500000 per dollar', () => {
    expect(dollarsToQuota(5)).toBe(2_500_000);
    expect(dollarsToQuota(0.000002)).toBe(1);
    expect(quotaToDollars(10_000_000)).toBe(20);
  });
});
