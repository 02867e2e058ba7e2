import { describe, expect, it } from 'vitest';
import { convertPrice, extractPriceNumber, splitPrice } from './price';

describe('price conversion', () => {
  it('extracts the numeric part of a price text', () => {
    expect(extractPriceNumber('$2.5')).toBe(2.5);
    expect(extractPriceNumber('input 10 USD')).toBe(10);
    expect(extractPriceNumber('$1,200')).toBe(1200);
    expect(extractPriceNumber('free')).toBeNull();
    expect(extractPriceNumber('')).toBeNull();
    expect(extractPriceNumber(undefined)).toBeNull();
  });

  it('shows 4 decimals per 1M and divides by 1000 for 1K', () => {
    expect(convertPrice('$2.5', '1M')).toBe('2.5000');
    expect(convertPrice('$2.5', '1K')).toBe('0.0025');
    expect(convertPrice('$15', '1K')).toBe('0.0150');
    expect(convertPrice('$0', '1M')).toBe('0.0000');
    expect(convertPrice('n/a', '1K')).toBeNull();
  });

  it('splits input and output at the full-width semicolon', () => {
    expect(splitPrice('$2.5；$10')).toEqual({ input: '$2.5', output: '$10' });
    expect(splitPrice('$1;$2')).toEqual({ input: '$1', output: '$2' });
    expect(splitPrice('$1')).toEqual({ input: '$1', output: '' });
    expect(splitPrice(undefined)).toEqual({ input: '', output: '' });
  });
});
