import { z } from 'zod';

/**
 * Rules shared by the /api schemas for what arrives as identifiers, names and query text. Ids are canonical
 * positive integers, names hold no invisible or direction-changing characters, and numbers in query strings
 * are whole decimal integers, so `1e3`, `0x10`, `1.5` or `1; drop table` are refused instead of coerced.
 */

const idMessage = 'must be a positive integer id';

/**
 * A row id from a path or a body: a positive 32-bit integer written canonically. Text such as `1.0`, `0x1`,
 * `01`, ` 1` or `1e0` is refused, not read as 1; a JSON body may send the number itself.
 */
export const idField = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^[1-9]\d{0,9}$/, idMessage)
      .transform(Number),
  ])
  .pipe(z.number().int(idMessage).positive(idMessage).max(2_147_483_647, idMessage));

/** `/:id` path parameters. */
export const idParams = z.object({ id: idField });

/**
 * Characters a name must not hold: control characters (NUL included), the bidirectional overrides,
 * embeddings, isolates and marks (U+202E makes "exe.txt" read "txt.exe"), invisible separators and lone
 * surrogates. Zero-width joiners stay allowed: emoji sequences and several scripts need them.
 */
const hiddenCharacters = /[\p{Cc}\p{Cs}\u061C\u200B\u200E\u200F\u2028-\u202E\u2060\u2066-\u2069\uFEFF\uFFF9-\uFFFB]/u;

/** True when the text holds a character that {@link plainName} refuses. */
export const hasHiddenCharacters = (text: string): boolean => hiddenCharacters.test(text);

/** Adds the check to a string schema of a name (user, display, token, channel, redemption). */
export const plainName = <S extends z.ZodType<string>>(schema: S) =>
  schema.refine((text) => !hasHiddenCharacters(text), {
    message: 'must not contain control or bidirectional formatting characters',
  });

/** Query or path text that must be a whole decimal number. */
export const integerText = z
  .string()
  .trim()
  .regex(/^-?\d{1,15}$/, 'must be an integer')
  .transform(Number);

/** Consoles send unset filters as empty values (`&channel=`): treat them as absent. */
const blankAsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** An optional integer query value; empty means absent. */
export const optionalIntegerText = z.preprocess(blankAsAbsent, integerText.optional());

/** The 0-based page of a list: missing means 0 and, as in one-api, a negative page means the first. */
export const pageNumber = optionalIntegerText.transform((page) => Math.max(page ?? 0, 0));

/** A search keyword: trimmed, at most 100 characters. */
export const keywordText = z.string().trim().max(100, 'the keyword is too long').default('');

/** A Unix-seconds bound of a time filter; 0 or missing means unbounded. */
export const timestampText = z.preprocess(
  blankAsAbsent,
  integerText.pipe(z.number().int().min(0, 'must not be negative')).optional(),
);

/** `?status_only=1` on PUT switches to a status-only update (one-api: any non-empty value). */
export const statusOnlyQuery = z.object({ status_only: z.string().optional() });

/** Enable (1) or disable (2): the only statuses a list's switch may set. */
export const switchStatus = z.union([z.literal(1), z.literal(2)], {
  error: 'status must be 1 (enabled) or 2 (disabled)',
});

/** PUT ?status_only=1 of tokens and redemption codes. */
export const statusChangeBody = z.object({ id: z.number().int().positive(), status: switchStatus });
