import { z } from 'zod';

/**
 * Rules shared by the /api schemas for what arrives as identifiers and names: ids are canonical positive
 * integers, names hold no invisible or direction-changing characters.
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
