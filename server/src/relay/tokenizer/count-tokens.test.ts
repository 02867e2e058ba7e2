import { describe, expect, test } from 'vitest';
import { countInput, countMessages, countText } from './count-tokens.js';

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
