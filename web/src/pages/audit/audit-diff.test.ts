import { describe, expect, it } from 'vitest';
import { auditChanges, shortValue } from './audit-diff';

describe('auditChanges', () => {
  it('lists only the fields that changed, with both sides', () => {
    expect(auditChanges({ id: 1, quota: 0, password: '***' }, { id: 1, quota: 77, password: '*** (changed)' })).toEqual(
      [
        { field: 'quota', before: 0, after: 77 },
        { field: 'password', before: '***', after: '*** (changed)' },
      ],
    );
  });

  it('shows a created row against nothing and a deleted one against nothing', () => {
    expect(auditChanges(null, { name: 'a' })).toEqual([{ field: 'name', before: undefined, after: 'a' }]);
    expect(auditChanges({ name: 'a' }, null)).toEqual([{ field: 'name', before: 'a', after: undefined }]);
  });

  it('treats a value that is not a row as one change', () => {
    expect(auditChanges(null, 3)).toEqual([{ field: '', before: null, after: 3 }]);
    expect(auditChanges(null, null)).toEqual([]);
  });
});

describe('shortValue', () => {
  it('shortens long values and shows nothing as ∅', () => {
    expect(shortValue(undefined)).toBe('∅');
    expect(shortValue('x'.repeat(80), 10)).toBe('xxxxxxxxx…');
    expect(shortValue({ a: 1 })).toBe('{"a":1}');
  });
});
