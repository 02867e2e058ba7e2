import { describe, expect, it } from 'vitest';
import { QUOTA_PER_DOLLAR, readQuotaDisplayOptions, renderNumber, renderQuota } from './quota';

describe('renderQuota', () => {
  it('shows dollars with 2 decimals when currency display is on', () => {
    expect(renderQuota(500_000, { displayInCurrency: true, quotaPerUnit: 500_000 })).toBe('$1.00');
    expect(renderQuota(1_234_567, { displayInCurrency: true, quotaPerUnit: 500_000 })).toBe('$2.47');
    expect(renderQuota(0, { displayInCurrency: true, quotaPerUnit: 500_000 })).toBe('$0.00');
    expect(renderQuota(100, { displayInCurrency: true, quotaPerUnit: 10 })).toBe('$10.00');
  });

  it('falls back to 500 000 per dollar when quota_per_unit is unusable', () => {
    expect(renderQuota(QUOTA_PER_DOLLAR * 3, { displayInCurrency: true, quotaPerUnit: 0 })).toBe('$3.00');
  });

  it('abbreviates with one decimal when currency display is off', () => {
    const off = { displayInCurrency: false, quotaPerUnit: 500_000 };
    expect(renderQuota(9_999, off)).toBe('9999');
    expect(renderQuota(10_000, off)).toBe('10.0k');
    expect(renderQuota(123_456, off)).toBe('123.5k');
    expect(renderQuota(1_000_000, off)).toBe('1.0M');
    expect(renderQuota(2_500_000_000, off)).toBe('2.5B');
  });
});

describe('renderNumber', () => {
  it('keeps small numbers and abbreviates negatives by magnitude', () => {
    expect(renderNumber(0)).toBe('0');
    expect(renderNumber(-20_000)).toBe('-20.0k');
  });
});

describe('readQuotaDisplayOptions', () => {
  it('reads the stored status values', () => {
    localStorage.setItem('display_in_currency', 'true');
    localStorage.setItem('quota_per_unit', '1000');
    expect(readQuotaDisplayOptions()).toEqual({ displayInCurrency: true, quotaPerUnit: 1000 });
  });

  it('defaults to abbreviations and 500 000 per dollar', () => {
    expect(readQuotaDisplayOptions()).toEqual({ displayInCurrency: false, quotaPerUnit: 500_000 });
  });
});
