import { describe, expect, it } from 'vitest';
import { truncateUsername } from './user-name-cell';

describe('truncateUsername', () => {
  it('keeps 15 characters', () => {
    expect(truncateUsername('short')).toBe('short');
    expect(truncateUsername('abcdefghijklmno')).toBe('abcdefghijklmno');
    expect(truncateUsername('abcdefghijklmnopq')).toBe('abcdefghijklmno...');
  });
});
