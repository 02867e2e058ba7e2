import { expect, test } from 'vitest';
import { randomHex } from './random.js';

test('pooled random ids: the asked length in hex, never repeated, across many refills of the pool', () => {
  const seen = new Set<string>();
  // 24 bytes each: 1,000 ids draw 24,000 bytes, the pool (4 KiB) refilled five times, one id cut at a refill.
  for (let index = 0; index < 1000; index++) {
    const id = randomHex(24);
    expect(id).toMatch(/^[0-9a-f]{48}$/);
    seen.add(id);
  }
  expect(seen.size).toBe(1000);
  // The bytes are spread as random ones are: every hex digit shows up, none far more than the others.
  const digits = new Map<string, number>();
  for (const id of seen) for (const digit of id) digits.set(digit, (digits.get(digit) ?? 0) + 1);
  expect(digits.size).toBe(16);
  for (const count of digits.values()) expect(count).toBeGreaterThan(2000);
  // Longer than the pool: drawn directly.
  expect(randomHex(5000)).toMatch(/^[0-9a-f]{10000}$/);
});
