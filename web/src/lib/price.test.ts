import { describe, expect, it } from 'vitest';
import { formatUsd, priceInUnit, tokensShort } from './price';

describe('prices', () => {
  it('writes dollars as an admin would, without float noise', () => {
    expect(formatUsd(0.15 * 1.1)).toBe('0.165');
    expect(formatUsd(3.75)).toBe('3.75');
    expect(formatUsd(1e-7)).toBe('0.0000001');
    expect(formatUsd(100_000)).toBe('100000');
    expect(formatUsd(0)).toBe('0');
  });

  it('shows 4 decimals per 1M and divides by 1000 for 1K', () => {
    expect(priceInUnit(2.5, '1M')).toBe('2.5000');
    expect(priceInUnit(2.5, '1K')).toBe('0.0025');
    expect(priceInUnit(15, '1K')).toBe('0.0150');
    expect(priceInUnit(0, '1K')).toBe('0.0000');
  });

  it('keeps a cheap price from reading 0.0000', () => {
    expect(priceInUnit(0.15, '1K')).toBe('0.0001');
    expect(priceInUnit(0.02, '1K')).toBe('0.00002');
    expect(priceInUnit(0.025, '1K')).toBe('0.000025');
  });

  it('writes a threshold as vendors do', () => {
    expect(tokensShort(200_000)).toBe('200K');
    expect(tokensShort(1_000_000)).toBe('1M');
    expect(tokensShort(128_500)).toBe('128.5K');
    expect(tokensShort(272_001)).toBe('272001');
  });
});
