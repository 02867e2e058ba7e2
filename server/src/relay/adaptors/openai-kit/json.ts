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

/**
 * The `type` of an event's JSON object: read from its start, where OpenAI and Anthropic write it
 * (`{"type":"…"`, with any whitespace), and parsed only otherwise. A stream's every event is told by it, so
 * the common case allocates nothing but the name.
 */
export function eventTypeOf(data: string): string | undefined {
  let at = 0;
  const space = () => {
    let code = data.charCodeAt(at);
    while (code === 32 || code === 10 || code === 13 || code === 9) code = data.charCodeAt(++at);
  };
  space();
  if (data.charCodeAt(at) === 123 /* { */) {
    at++;
    space();
    if (data.startsWith('"type"', at)) {
      at += 6;
      space();
      if (data.charCodeAt(at) === 58 /* : */) {
        at++;
        space();
        const end = data.indexOf('"', at + 1);
        // A name with an escape in it is left to the parser.
        if (data.charCodeAt(at) === 34 /* " */ && end > at + 1 && data.lastIndexOf('\\', end) < at) {
          return data.slice(at + 1, end);
        }
      }
    }
  }
  const parsed = tryParseObject(data);
  return typeof parsed?.type === 'string' ? parsed.type : undefined;
}
