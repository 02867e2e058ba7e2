import { describe, expect, it } from 'vitest';
import { isValidJson } from './json';

describe('isValidJson', () => {
  it('accepts JSON values', () => {
    expect(isValidJson('{"gpt-4": 15}')).toBe(true);
    expect(isValidJson('[]')).toBe(true);
    expect(isValidJson('1')).toBe(true);
  });

  it('rejects broken text', () => {
    expect(isValidJson('{gpt-4: 15}')).toBe(false);
    expect(isValidJson('')).toBe(false);
    expect(isValidJson('{"a":1,}')).toBe(false);
  });
});
