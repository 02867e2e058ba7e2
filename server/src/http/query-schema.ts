import { z } from 'zod';

/**
 * Building blocks for query strings and path parameters, which always arrive as text. Numbers are checked
 * as whole decimal integers, so `1e3`, `0x10`, `1.5` or `1; drop table` are refused instead of coerced.
 */
export const integerText = z
  .string()
  .trim()
  .regex(/^-?\d{1,15}$/, 'must be an integer')
  .transform(Number);

/** Consoles send unset filters as empty values (`&channel=`): treat them as absent. */
const blankAsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** An optional integer query value; empty means absent. */
export const optionalIntegerText = z.preprocess(blankAsAbsent, integerText.optional());

/** A positive row id (`/api/token/:id`). */
export const idParam = z.object({ id: integerText.pipe(z.number().int().positive('must be a positive id')) });

/** The 0-based page of a list: missing means 0 and, as in one-api, a negative page means the first. */
export const pageNumber = optionalIntegerText.transform((page) => Math.max(page ?? 0, 0));

/** A search keyword: trimmed, at most 100 characters. */
export const keywordText = z.string().trim().max(100, 'the keyword is too long').default('');

/** A Unix-seconds bound of a time filter; 0 or missing means unbounded. */
export const timestampText = z.preprocess(
  blankAsAbsent,
  integerText.pipe(z.number().int().min(0, 'must not be negative')).optional(),
);
