/**
 * How deep a request body may nest. Real requests stay far below it: a chat with tools nests about 10 deep
 * around its schemas, and tool or structured-output JSON Schemas rarely pass 20-30 more; 128 leaves room for
 * generated schemas while keeping every recursive walk (conversions, schema clean-ups, zod) far from the
 * stack's limit, which a 5,000-deep body reached on the Gemini front (issue 32, point 5).
 */
export const maxJsonDepth = 128;

/** A request body that is not JSON, or nests deeper than `maxJsonDepth`; each route answers it in its dialect. */
export class JsonBodyError extends Error {
  constructor(
    readonly reason: 'invalid' | 'too_deep',
    message: string,
  ) {
    super(message);
  }
}

const quote = 0x22;
const backslash = 0x5c;

/**
 * True when the JSON text opens more than `limit` objects or arrays at once. One pass, no recursion: strings are
 * skipped with the native `indexOf` (the brackets of a prompt do not count); only bodies longer than `2 × limit`
 * bytes are looked at, since nesting deeper takes a bracket in and out per level.
 */
export function nestsDeeperThan(raw: Buffer, limit = maxJsonDepth): boolean {
  if (raw.length <= 2 * limit) return false;
  let depth = 0;
  for (let index = 0; index < raw.length; index++) {
    const byte = raw[index];
    if (byte === quote) {
      // The string ends at the next quote not escaped by an odd run of backslashes.
      for (;;) {
        index = raw.indexOf(quote, index + 1);
        if (index < 0) return false; // an unterminated string: JSON.parse refuses it
        let escapes = 0;
        while (raw[index - 1 - escapes] === backslash) escapes++;
        if (escapes % 2 === 0) break;
      }
    } else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > limit) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

/** Every request body's JSON parse (relay fronts and /api): refuses bodies that are not JSON or nest too deep. */
export function parseJsonBody(raw: Buffer): unknown {
  if (nestsDeeperThan(raw))
    throw new JsonBodyError('too_deep', `the request body nests deeper than ${maxJsonDepth} levels`);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new JsonBodyError('invalid', `the request body is not valid JSON: ${(error as Error).message}`);
  }
}
