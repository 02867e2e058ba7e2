import { unreadableAnswer } from '../../upstream-error.js';

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const stringOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Parses JSON without throwing: undefined when the text is not JSON. */
export function parseJson(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Parses a JSON object without throwing: undefined when it is not JSON or not an object. */
export function tryParseObject(body: Buffer | string): Record<string, unknown> | undefined {
  const parsed = parseJson(body);
  return isObject(parsed) ? parsed : undefined;
}

/** Parses a JSON object answer or throws the relay's unreadable-answer error. */
export function parseJsonObject(body: Buffer | string): Record<string, unknown> {
  const parsed = parseJson(body);
  if (parsed === undefined) throw unreadableAnswer('not JSON');
  if (!isObject(parsed)) throw unreadableAnswer('not a JSON object');
  return parsed;
}

/** The first 300 characters of a body, for messages about answers we cannot read. */
export function bodyExcerpt(body: Buffer): string {
  const text = body.toString('utf8');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
