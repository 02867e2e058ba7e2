/** One changed field of an audit entry: its name and the value before and after (undefined: absent). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields an admin write changed, in the order the row lists them. Rows are compared field by field;
 * anything else (a created batch, a delete's count) is one change of the whole value.
 */
export function auditChanges(before: unknown, after: unknown): FieldChange[] {
  if (!isRecord(before) && !isRecord(after)) {
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ field: '', before, after }];
  }
  const previous = isRecord(before) ? before : {};
  const next = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(previous), ...Object.keys(next)])];
  return fields
    .filter((field) => JSON.stringify(previous[field]) !== JSON.stringify(next[field]))
    .map((field) => ({ field, before: previous[field], after: next[field] }));
}

/** A value as one short line. */
export function shortValue(value: unknown, limit = 60): string {
  if (value === undefined || value === null) return '∅';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
