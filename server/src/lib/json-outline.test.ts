import { describe, expect, test } from 'vitest';
import {
  decodedByteLength,
  lazyCopy,
  lazyObject,
  nodeValue,
  outlineJson,
  type OutlineNode,
  type OutlineObject,
} from './json-outline.js';

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const below = (n: number) => Math.floor(next() * n);
  return { next, below, pick: <T>(items: readonly T[]) => items[below(items.length)]! };
}

// Texts that exercise every escape: quotes, backslashes, controls, non-BMP characters, lone surrogates.
const pieces = [
  'a',
  'lorem ',
  '你好',
  '"',
  '\\',
  '/',
  '\n',
  '\t',
  '\u0001',
  '😀',
  '\ud800',
  '\udfff',
  'é',
  '\u2028',
  '}',
  ']',
];

function value(rng: ReturnType<typeof random>, depth: number): unknown {
  const kind = depth > 4 ? rng.below(4) : rng.below(6);
  if (kind === 0) return Array.from({ length: rng.below(6) }, () => rng.pick(pieces)).join('');
  if (kind === 1) return rng.pick([0, -0, 1.5, -2e-7, 1e21, 123456789, 3.14159]);
  if (kind === 2) return rng.pick([true, false, null]);
  if (kind === 3) return rng.pick(['model', '', 'gpt-4o-mini']);
  if (kind === 4) return Array.from({ length: rng.below(4) }, () => value(rng, depth + 1));
  const object: Record<string, unknown> = {};
  for (let index = rng.below(5); index > 0; index--)
    object[rng.pick(['a', 'b', '键', 'k"q', '10', '2'])] = value(rng, depth + 1);
  return object;
}

const stringNodes = (node: OutlineNode): OutlineNode[] =>
  node.type === 'object'
    ? [...node.members.values()].flatMap(stringNodes)
    : node.type === 'array'
      ? node.items.flatMap(stringNodes)
      : node.type === 'string'
        ? [node]
        : [];

describe('outlineJson', () => {
  test('reads what JSON.parse reads, for every value, every escape and every spacing', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const rng = random(seed);
      const body = { value: value(rng, 0), other: value(rng, 0), 'k"\\': value(rng, 0) };
      const text = JSON.stringify(body, null, rng.below(2) ? undefined : ' ').replace(/\n/g, ' ');
      const raw = Buffer.from(text);
      const outline = outlineJson(raw);
      expect(outline, `seed ${seed}`).toBeDefined();
      const lazy = lazyObject(raw, outline!);
      expect(JSON.stringify(lazy)).toBe(JSON.stringify(JSON.parse(text)));
      expect(lazy).toEqual(JSON.parse(text));
      // Each string's decoded size without decoding it.
      for (const node of stringNodes(outline!))
        expect(decodedByteLength(raw, node as never)).toBe(Buffer.byteLength(nodeValue(raw, node) as string));
    }
  });

  test('never vouches for bytes JSON.parse refuses (every one-byte change of valid bodies)', () => {
    const edits = [...'{}[]",:\\-+.eE0 1tfnu'].map((char) => char.charCodeAt(0));
    let accepted = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rng = random(seed);
      const raw = Buffer.from(JSON.stringify({ model: 'm', messages: value(rng, 0), n: -1.5e3 }));
      for (let trial = 0; trial < 200; trial++) {
        const at = rng.below(raw.length);
        const changed = rng.below(2)
          ? Buffer.concat([raw.subarray(0, at), raw.subarray(at + 1)])
          : Buffer.concat([raw.subarray(0, at), Buffer.from([rng.pick(edits)]), raw.subarray(at)]);
        const outline = outlineJson(changed);
        let parsed: unknown;
        try {
          parsed = JSON.parse(changed.toString('utf8'));
        } catch {
          expect(outline, `seed ${seed}: ${changed.toString()}`).toBeUndefined();
          continue;
        }
        if (!outline) continue; // valid JSON it leaves to JSON.parse (not an object, say)
        accepted++;
        expect(lazyObject(changed, outline)).toEqual(parsed);
      }
    }
    expect(accepted).toBeGreaterThan(1000);
  });

  test('leaves to JSON.parse what it does not read: other values, controls, bad UTF-8, deep nesting', () => {
    const none = (text: string | Buffer) =>
      expect(outlineJson(Buffer.isBuffer(text) ? text : Buffer.from(text))).toBeUndefined();
    none('[1,2]');
    none('"text"');
    none('{"a":1}{');
    none('{"a":1,}');
    none('{"a":01}');
    none('{"a":tru}');
    none('{"a":"\\x"}');
    none('{"a":"\\u12G4"}');
    none('{\n  "a": 1\n}'); // pretty-printed: parsed as before
    none('{"a":"tab\there"}');
    none(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])); // not UTF-8
    none(`${'{"a":'.repeat(129)}1${'}'.repeat(129)}`);
    expect(outlineJson(Buffer.from(`${'{"a":'.repeat(127)}1${'}'.repeat(127)}`))).toBeDefined();
    // Every offset of the control-byte test's word reading (a pooled Buffer starts anywhere in its memory).
    for (let offset = 0; offset < 8; offset++) {
      const memory = Buffer.alloc(64, 0x20);
      const text = '{"a":"xxxxxxxxxxxxxxxxxxxx"}';
      memory.write(text, offset);
      const raw = memory.subarray(offset, offset + text.length);
      expect(outlineJson(raw)).toBeDefined();
      for (let at = 6; at < text.length - 2; at++) {
        const bad = Buffer.from(raw);
        const copy = Buffer.alloc(64, 0x20);
        bad[at] = 0x1f;
        bad.copy(copy, offset);
        none(copy.subarray(offset, offset + text.length));
      }
    }
  });
});

describe('lazyObject', () => {
  const raw = Buffer.from('{"model":"m","__proto__":{"x":1},"messages":[{"role":"user","content":"hi"}],"model":"n"}');
  const outline = outlineJson(raw) as OutlineObject;

  test('as JSON.parse: a repeated key keeps its first place and last value, __proto__ is an own member', () => {
    const lazy = lazyObject(raw, outline);
    expect(Object.keys(lazy)).toEqual(['model', '__proto__', 'messages']);
    expect(lazy.model).toBe('n');
    expect(Object.getPrototypeOf(lazy)).toBe(Object.prototype);
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(JSON.parse(raw.toString())));
  });

  test('decodes a container when first read, once; assigning and deleting work as on a plain object', () => {
    const lazy = lazyObject(raw, outline);
    const undecoded = (object: object, key: string) => Object.getOwnPropertyDescriptor(object, key)?.get !== undefined;
    expect(undecoded(lazy, 'messages')).toBe(true);
    const copy = lazyCopy(lazy);
    expect(undecoded(copy, 'messages')).toBe(true);
    const messages = lazy.messages;
    expect(messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(lazy.messages).toBe(messages);
    expect(undecoded(lazy, 'messages')).toBe(false);
    expect(undecoded(copy, 'messages')).toBe(true); // the copy decodes its own when read
    copy.messages = [];
    expect(copy.messages).toEqual([]);
    expect(lazy.messages).toBe(messages);
    delete lazy.messages;
    expect('messages' in lazy).toBe(false);
  });
});
