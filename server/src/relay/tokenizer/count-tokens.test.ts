import { describe, expect, test } from 'vitest';
import { outlineJson } from '../../lib/json-outline.js';
import { countInput, countMessages, countText, estimateOutlinedMessages } from './count-tokens.js';

describe('token counting', () => {
  test('texts are counted with the encoding of the model family', () => {
    expect(countText('hello world', 'gpt-3.5-turbo')).toBe(2);
    expect(countText('hello world', 'gpt-4o-mini')).toBe(2);
    // The two encodings differ on this text, which shows the family picks the table.
    const text = '你好，世界！这是一次测试。';
    expect(countText(text, 'gpt-4o')).not.toBe(countText(text, 'gpt-4'));
    expect(countText('', 'gpt-4o')).toBe(0);
  });

  test("ApproximateTokenEnabled uses one-api's bytes × 0.38", () => {
    expect(countText('abcdefghij', 'gpt-4o', true)).toBe(3);
    expect(countText('你好', 'gpt-4o', true)).toBe(2);
  });

  test("chat prompts follow one-api's formula: 3 per message, role, content, name, and 3 for the reply", () => {
    const messages = [
      { role: 'system', content: 'hello world' },
      { role: 'user', name: 'bob', content: [{ type: 'text', text: 'hello world' }] },
    ];
    const role = (name: string) => countText(name, 'gpt-4o');
    const expected = 3 + role('system') + 2 + 3 + role('user') + countText('bob', 'gpt-4o') + 1 + 2 + 3;
    expect(countMessages(messages, 'gpt-4o')).toBe(expected);
    expect(countMessages('not a list', 'gpt-4o')).toBe(0);
  });

  test('completion inputs: strings and arrays of strings count, other shapes do not crash', () => {
    expect(countInput('hello world', 'gpt-3.5-turbo')).toBe(2);
    expect(countInput(['hello world', 'hello world'], 'gpt-3.5-turbo')).toBe(4);
    expect(countInput({ unexpected: true }, 'gpt-3.5-turbo')).toBe(0);
  });
});

test("a conversation's estimate from its outline is countMessages' estimate, to the token", () => {
  const texts = [
    'hi',
    '',
    '你好世界 😀',
    'line\nbreak "quoted" \\ \u0001',
    'é'.repeat(50),
    '\ud800 lone',
    'x'.repeat(999),
  ];
  let seed = 7;
  const pick = <T>(items: readonly T[]): T => items[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % items.length]!;
  for (let round = 0; round < 200; round++) {
    const messages = Array.from({ length: 1 + (round % 6) }, () =>
      pick([
        { role: pick(['user', 'assistant', 'system']), content: pick(texts) },
        { role: 'user', name: pick(texts), content: pick(texts) },
        { role: 7, content: pick(texts) },
        'not a message',
        { role: 'tool', content: null, tool_call_id: 'call_1' },
        {
          role: 'user',
          content: [
            { type: 'text', text: pick(texts) },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: pick(['low', 'high']) } },
            { type: 'text', text: 5 },
            'part',
          ],
        },
      ]),
    );
    const model = pick(['gpt-4o-mini', 'gpt-3.5-turbo-0301']);
    const raw = Buffer.from(JSON.stringify({ model, messages }));
    const outline = outlineJson(raw)!;
    expect(estimateOutlinedMessages(raw, outline.members.get('messages'), model)).toBe(
      countMessages(messages, model, true),
    );
  }
});
