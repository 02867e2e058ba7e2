import { describe, expect, it } from 'vitest';
import { formatResponseTime, responseTimeColor } from './response-time';

describe('responseTimeColor', () => {
  it('follows the 1 s, 3 s and 5 s thresholds', () => {
    expect(responseTimeColor(0)).toBe('default');
    expect(responseTimeColor(1)).toBe('green');
    expect(responseTimeColor(1000)).toBe('green');
    expect(responseTimeColor(1001)).toBe('lime');
    expect(responseTimeColor(3000)).toBe('lime');
    expect(responseTimeColor(3001)).toBe('gold');
    expect(responseTimeColor(5000)).toBe('gold');
    expect(responseTimeColor(5001)).toBe('red');
  });

  it('shows seconds with 2 decimals', () => {
    expect(formatResponseTime(1234)).toBe('1.23');
    expect(formatResponseTime(0)).toBe('0.00');
  });
});
