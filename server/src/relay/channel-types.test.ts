import { describe, expect, test } from 'vitest';
import { ChannelType } from '../domain/channel/channel.constants.js';
import { allChannelTypes, describeChannelType } from './channel-types.js';

describe('channel types', () => {
  test('numbers are one-api’s, contiguous 0–51', () => {
    expect(Object.values(ChannelType)).toEqual(Array.from({ length: 52 }, (_, index) => index));
    expect(ChannelType).toMatchObject({
      OpenAI: 1,
      Azure: 3,
      Anthropic: 14,
      Gemini: 24,
      DeepSeek: 36,
      Proxy: 43,
      OpenAICompatible: 50,
      GeminiOpenAICompatible: 51,
    });
  });

  test('every type has an entry: a label, an adaptor or an explicit null, a family and a model list', () => {
    for (const type of Object.values(ChannelType)) {
      const description = describeChannelType(type);
      expect(description.type).toBe(type);
      expect(description.name).not.toBe('');
      expect(description).toHaveProperty('adaptor');
      expect(description.family).not.toBe('');
      expect(Array.isArray(description.models)).toBe(true);
      if (description.adaptor) {
        expect(description.adaptor.modes.length).toBeGreaterThan(0);
        expect(description.family).toBe(description.adaptor.id);
      }
    }
    expect(allChannelTypes()).toHaveLength(52);
  });

  test('every OpenAI-protocol type is served (vendor protocols get theirs as their adaptors land)', () => {
    const served = [
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 19, 20, 22, 25, 26, 27, 28, 29, 31, 32, 36, 39, 40, 41, 44, 45, 47, 48, 49,
      50, 51,
    ];
    for (const type of served) expect(describeChannelType(type).adaptor, `type ${type}`).not.toBeNull();
    expect(describeChannelType(ChannelType.Unknown).adaptor).toBeNull();
  });

  test('default base URLs follow one-api; unknown numbers describe as Unknown', () => {
    expect(describeChannelType(1).defaultBaseUrl).toBe('https://api.openai.com');
    expect(describeChannelType(3).defaultBaseUrl).toBe('');
    expect(describeChannelType(29).defaultBaseUrl).toBe('https://api.groq.com/openai');
    expect(describeChannelType(999)).toMatchObject({ name: 'Unknown', adaptor: null });
  });
});
