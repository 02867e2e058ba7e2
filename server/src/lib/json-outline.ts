import { isUtf8 } from 'node:buffer';
import { maxJsonDepth } from './json-body.js';

/**
 * A JSON text's structure read from its bytes, without decoding its strings: where each value starts and ends.
 * An agent's request carries a conversation of hundreds of kilobytes on every step; decoding it to a string
 * (V8 decodes mixed Latin and Chinese text at about 150 MB/s) and parsing it costs more than the rest of the
 * call, though the relay reads only a few small fields and forwards the bytes as they came. Values are decoded
 * when a feature asks for them (`lazyObject`).
 */
export type OutlineNode = OutlineObject | OutlineArray | OutlineString | OutlineScalar;

/** Where a value's JSON text is in the bytes: `start` inclusive, `end` exclusive (a string's quotes included). */
interface Span {
  start: number;
  end: number;
}
export interface OutlineObject extends Span {
  type: 'object';
  /** In the order JSON.parse would keep them: a repeated key keeps its first place and its last value. */
  members: Map<string, OutlineNode>;
}
export interface OutlineArray extends Span {
  type: 'array';
  items: OutlineNode[];
}
export interface OutlineString extends Span {
  type: 'string';
  /** Whether the text holds an escape sequence (without one, its bytes between the quotes are its UTF-8). */
  escaped: boolean;
}
export interface OutlineScalar extends Span {
  type: 'number' | 'true' | 'false' | 'null';
}

const [quote, backslash, comma, colon, minus, plus, dot] = [0x22, 0x5c, 0x2c, 0x3a, 0x2d, 0x2b, 0x2e];
const [openBrace, closeBrace, openBracket, closeBracket, space] = [0x7b, 0x7d, 0x5b, 0x5d, 0x20];
const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;
const isHex = (byte: number | undefined) =>
  byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66));
const simpleEscapes = new Set([quote, backslash, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const literals: [OutlineScalar['type'], Buffer][] = [
  ['true', Buffer.from('true')],
  ['false', Buffer.from('false')],
  ['null', Buffer.from('null')],
];

/** Thrown inside the reader when the text is not one it vouches for; `outlineJson` answers undefined then. */
class NotOutlined extends Error {}
const refuse = (): never => {
  throw new NotOutlined();
};

/** Whether any byte is below 0x20, four bytes at a time (JSON allows none in a string, and tabs or newlines only between tokens). */
function hasControlByte(raw: Buffer): boolean {
  let index = 0;
  // Up to the first 4-byte boundary of the underlying memory, then whole words, then the tail.
  while (index < raw.length && (raw.byteOffset + index) % 4 !== 0) if (raw[index++]! < 0x20) return true;
  const words = new Uint32Array(raw.buffer, raw.byteOffset + index, (raw.length - index) >>> 2);
  for (let word = 0; word < words.length; word++) {
    const value = words[word]!;
    // A byte below 0x20 borrows from its high bit when 0x20 is taken from each byte (the classic "has less" test).
    if (((value - 0x20202020) & ~value & 0x80808080) !== 0) return true;
  }
  for (index += words.length * 4; index < raw.length; index++) if (raw[index]! < 0x20) return true;
  return false;
}

/**
 * The outline of a JSON object's bytes, or undefined when this reader does not vouch for them: not an object,
 * not valid JSON, not valid UTF-8, nesting deeper than `maxJsonDepth`, or holding a byte below 0x20 (tabs and
 * newlines of pretty-printed JSON included: such bodies are parsed as before). Whatever it outlines, JSON.parse
 * of the decoded bytes reads the same values.
 */
export function outlineJson(raw: Buffer): OutlineObject | undefined {
  if (hasControlByte(raw) || !isUtf8(raw)) return undefined;
  // The next backslash at or after the reading position: strings without one are skipped by `indexOf` alone.
  let nextEscape = raw.indexOf(backslash);
  let at = 0;
  const skipSpaces = () => {
    while (raw[at] === space) at++;
  };

  const readString = (): OutlineString => {
    const start = at;
    let escaped = false;
    at++;
    for (;;) {
      const close = raw.indexOf(quote, at);
      if (close < 0) refuse();
      if (nextEscape < 0 || nextEscape > close) {
        at = close + 1;
        return { type: 'string', start, end: at, escaped };
      }
      // An escape before the quote: check it, then look again after it (the quote may be the escaped one).
      escaped = true;
      at = nextEscape + 1;
      const kind = raw[at];
      if (kind === 0x75) {
        for (let digit = 1; digit <= 4; digit++) if (!isHex(raw[at + digit])) refuse();
        at += 5;
      } else if (kind !== undefined && simpleEscapes.has(kind)) at++;
      else refuse();
      nextEscape = raw.indexOf(backslash, at);
    }
  };

  const readNumber = (): OutlineScalar => {
    const start = at;
    if (raw[at] === minus) at++;
    if (raw[at] === 0x30) at++;
    else if (isDigit(raw[at])) while (isDigit(raw[at])) at++;
    else refuse();
    if (raw[at] === dot) {
      at++;
      if (!isDigit(raw[at])) refuse();
      while (isDigit(raw[at])) at++;
    }
    if ((raw[at]! | 0x20) === 0x65) {
      at++;
      if (raw[at] === plus || raw[at] === minus) at++;
      if (!isDigit(raw[at])) refuse();
      while (isDigit(raw[at])) at++;
    }
    return { type: 'number', start, end: at };
  };

  const readValue = (depth: number): OutlineNode => {
    skipSpaces();
    const byte = raw[at];
    if (byte === quote) return readString();
    if (byte === openBrace) return readObject(depth + 1);
    if (byte === openBracket) return readArray(depth + 1);
    if (byte === minus || isDigit(byte)) return readNumber();
    for (const [type, text] of literals) {
      const end = at + text.length;
      if (byte === text[0] && end <= raw.length && raw.compare(text, 0, text.length, at, end) === 0) {
        const start = at;
        at = end;
        return { type, start, end };
      }
    }
    return refuse();
  };

  const readObject = (depth: number): OutlineObject => {
    if (depth > maxJsonDepth) refuse();
    const start = at++;
    const members = new Map<string, OutlineNode>();
    skipSpaces();
    if (raw[at] === closeBrace) return { type: 'object', start, end: ++at, members };
    for (;;) {
      skipSpaces();
      if (raw[at] !== quote) refuse();
      const key = stringValue(raw, readString());
      skipSpaces();
      if (raw[at++] !== colon) refuse();
      members.set(key, readValue(depth));
      skipSpaces();
      const next = raw[at++];
      if (next === closeBrace) return { type: 'object', start, end: at, members };
      if (next !== comma) refuse();
    }
  };

  const readArray = (depth: number): OutlineArray => {
    if (depth > maxJsonDepth) refuse();
    const start = at++;
    const items: OutlineNode[] = [];
    skipSpaces();
    if (raw[at] === closeBracket) return { type: 'array', start, end: ++at, items };
    for (;;) {
      items.push(readValue(depth));
      skipSpaces();
      const next = raw[at++];
      if (next === closeBracket) return { type: 'array', start, end: at, items };
      if (next !== comma) refuse();
    }
  };

  try {
    skipSpaces();
    if (raw[at] !== openBrace) return undefined;
    const outline = readObject(1);
    skipSpaces();
    return at === raw.length ? outline : undefined;
  } catch (error) {
    if (error instanceof NotOutlined) return undefined;
    throw error;
  }
}

/** A string node's text. */
export function stringValue(raw: Buffer, node: OutlineString): string {
  return node.escaped
    ? (JSON.parse(raw.toString('utf8', node.start, node.end)) as string)
    : raw.toString('utf8', node.start + 1, node.end - 1);
}

/** A node's value, as JSON.parse reads it. */
export function nodeValue(raw: Buffer, node: OutlineNode): unknown {
  switch (node.type) {
    case 'string':
      return stringValue(raw, node);
    case 'number':
      return Number(raw.toString('latin1', node.start, node.end));
    case 'true':
      return true;
    case 'false':
      return false;
    case 'null':
      return null;
    default:
      return JSON.parse(raw.toString('utf8', node.start, node.end));
  }
}

/**
 * The number of UTF-8 bytes a string node's text takes once decoded (Buffer.byteLength of its value), without
 * decoding it: its bytes between the quotes, less what each escape sequence saves.
 */
export function decodedByteLength(raw: Buffer, node: OutlineString): number {
  const last = node.end - 1;
  let length = last - node.start - 1;
  if (!node.escaped) return length;
  for (let at = raw.indexOf(backslash, node.start + 1); at >= 0 && at < last; at = raw.indexOf(backslash, at)) {
    if (raw[at + 1] !== 0x75) {
      length -= 1; // two bytes for one
      at += 2;
      continue;
    }
    const code = parseInt(raw.toString('latin1', at + 2, at + 6), 16);
    const low =
      code >= 0xd800 && code < 0xdc00 && raw[at + 6] === backslash && raw[at + 7] === 0x75
        ? parseInt(raw.toString('latin1', at + 8, at + 12), 16)
        : -1;
    if (low >= 0xdc00 && low < 0xe000) {
      length -= 12 - 4; // a surrogate pair: one 4-byte character
      at += 12;
    } else {
      // One UTF-16 unit: 1 to 3 bytes (a lone surrogate is written as U+FFFD, 3 bytes).
      length -= 6 - (code < 0x80 ? 1 : code < 0x800 ? 2 : 3);
      at += 6;
    }
  }
  return length;
}

/**
 * An object whose members are decoded the first time they are read (or spread, or serialised), each on its
 * own: a relay that reads `model` and `stream` never decodes `messages`. Assigning or deleting a member works as
 * on a plain object. Scalars are decoded at once (they are small); objects and arrays on first read.
 */
export function lazyObject(raw: Buffer, outline: OutlineObject): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, node] of outline.members) {
    if (node.type === 'object' || node.type === 'array')
      Object.defineProperty(object, key, {
        enumerable: true,
        configurable: true,
        get(this: Record<string, unknown>) {
          const value = nodeValue(raw, node);
          settle(this, key, value);
          return value;
        },
        set(this: Record<string, unknown>, value: unknown) {
          settle(this, key, value);
        },
      });
    else settle(object, key, nodeValue(raw, node));
  }
  return object;
}

/** A member as a plain data property (also for `__proto__`, which JSON.parse keeps as an own member). */
function settle(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A shallow copy that keeps members not yet decoded undecoded (a spread would decode every one). */
export function lazyCopy(object: Record<string, unknown>): Record<string, unknown> {
  return Object.defineProperties({}, Object.getOwnPropertyDescriptors(object)) as Record<string, unknown>;
}
