import { describe, expect, test } from 'vitest';
import { newRequestId } from './request-id.js';

describe('request ids', () => {
  test('are one-api-shaped: local date and time, milliseconds, then eight random digits', () => {
    const at = new Date(2026, 10, 21, 9, 5, 7, 42).getTime();
    const id = newRequestId(at);
    expect(id).toMatch(/^\d{25}$/);
    expect(id.slice(0, 17)).toBe('20261121090507042');
    expect(newRequestId(at)).not.toBe(id);
  });

  test('follow the clock across seconds', () => {
    const at = new Date(2026, 10, 21, 23, 59, 59, 999).getTime();
    expect(newRequestId(at).slice(0, 17)).toBe('20261121235959999');
    expect(newRequestId(at + 1).slice(0, 17)).toBe('20261122000000000');
    expect(newRequestId(at).slice(0, 17)).toBe('20261121235959999');
  });
});
