import { describe, expect, it } from 'vitest';
import { formatMoney, QUOTA_PER_DOLLAR, readQuotaDisplayOptions, renderNumber, renderQuota } from './quota';

describe('formatMoney', () => {
  it('keeps 2 decimals from one unit up', () => {
    expect(formatMoney(1)).toBe('$1.00');
    expect(formatMoney(12.345)).toBe('$12.35');
    expect(formatMoney(123_456.789)).toBe('$123456.79');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('gives tiny amounts 3 significant digits, so a cheap call never reads $0.00', () => {
    expect(formatMoney(7 / QUOTA_PER_DOLLAR)).toBe('$0.000014');
    expect(formatMoney(1 / QUOTA_PER_DOLLAR)).toBe('$0.000002');
    expect(formatMoney(123 / QUOTA_PER_DOLLAR)).toBe('$0.000246');
    expect(formatMoney(0.123456)).toBe('$0.123');
  });

  it('shows at least 2 decimals and no trailing zeros beyond them', () => {
    expect(formatMoney(0.5)).toBe('$0.50');
    expect(formatMoney(0.05)).toBe('$0.05');
    expect(formatMoney(0.125)).toBe('$0.125');
    expect(formatMoney(0.0099999)).toBe('$0.01');
    expect(formatMoney(0.9999)).toBe('$1.00');
  });

  it('puts the sign before the symbol and takes another symbol', () => {
    expect(formatMoney(-0.000014)).toBe('-$0.000014');
    expect(formatMoney(-2.5)).toBe('-$2.50');
    expect(formatMoney(3.5, '¥')).toBe('¥3.50');
    expect(formatMoney(0.0042, '¥')).toBe('¥0.0042');
  });

  it('never throws on a value that is not a number', () => {
    expect(formatMoney(Number.NaN)).toBe('$-');
  });
});

describe('renderQuota', () => {
  it('shows tiny amounts with enough digits when currency display is on', () => {
    expect(renderQuota(7, { displayInCurrency: true, quotaPerUnit: 500_000 })).toBe('$0.000014');
    expect(renderQuota(250_000, { displayInCurrency: true, quotaPerUnit: 500_000 })).toBe('$0.50');
  });

  it('shows dollars with 2 decimals from one dollar up when currency display is on', () => {
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
