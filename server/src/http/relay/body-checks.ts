// Written-out checks of request fields, for the fronts' bodies on the relay's path: each answers true only when
// the value certainly passes the wire schema's rule for it (issue 28: a zod parse copies the whole request).

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** A string of at most `max` UTF-16 units (zod's `.max` on strings). */
export const isStringUpTo = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length <= max;
/** The fronts' long text fields: instructions, message text, tool output. */
export const isText = (value: unknown): value is string => isStringUpTo(value, 10_000_000);
export const isNumberIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
export const isIntegerIn = (value: unknown, min: number, max: number): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;
/** An object whose `type` is a string of 1 to 64 units. */
export const isTyped = (value: unknown): value is Json =>
  isObject(value) && typeof value.type === 'string' && value.type.length >= 1 && value.type.length <= 64;
/** `undefined` passes: the field is optional. */
export const optional = (value: unknown, passes: (value: unknown) => boolean) => value === undefined || passes(value);
/** `undefined` and `null` pass: the field is optional and nullable. */
export const nullable = (value: unknown, passes: (value: unknown) => boolean) =>
  value === undefined || value === null || passes(value);
export const isArrayOf = (value: unknown, max: number, passes: (item: unknown) => boolean): value is unknown[] =>
  Array.isArray(value) && value.length <= max && value.every(passes);
