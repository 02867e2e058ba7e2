import { describe, expect, it } from 'vitest';
import { contrastWithWhite, readableMarkColour } from './mark-colour';

describe('readableMarkColour', () => {
  it('darkens a light brand colour until white letters reach 4.5:1, and keeps a dark one', () => {
    expect(contrastWithWhite('#10a37f')).toBeLessThan(4.5);
    expect(contrastWithWhite(readableMarkColour('#10a37f'))).toBeGreaterThanOrEqual(4.5);
    expect(readableMarkColour('#16191e')).toBe('#16191e');
    for (const colour of ['#15b03e', '#1a73e8', '#3c6cff', '#0070f0', '#e2167e'])
      expect(contrastWithWhite(readableMarkColour(colour))).toBeGreaterThanOrEqual(4.5);
  });
});
