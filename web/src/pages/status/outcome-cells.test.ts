import { describe, expect, it } from 'vitest';
import { successRateColor } from './outcome-cells';

describe('successRateColor', () => {
  it('colours by rate', () => {
    expect(successRateColor(null)).toBe('default');
    expect(successRateColor(1)).toBe('green');
    expect(successRateColor(0.95)).toBe('gold');
    expect(successRateColor(0.5)).toBe('red');
  });
});
