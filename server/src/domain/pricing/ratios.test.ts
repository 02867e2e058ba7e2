import pino from 'pino';
import { describe, expect, test } from 'vitest';
import type { AppContext } from '../../context.js';
import { OptionStore } from '../option/option.store.js';
import { imagePrice, imageRequestProblem } from './image-price.js';
import { completionRatio, familyCompletionRatio, groupRatio, modelRatio, ratioText } from './ratios.js';
import { textQuota, webSearchQuota } from '../../../test/one-api-formulas.js';

function contextWith(options: Record<string, string> = {}): AppContext {
  const store = new OptionStore();
  for (const [key, value] of Object.entries(options)) store.apply(key, value);
  return { options: store, logger: pino({ level: 'silent' }) } as unknown as AppContext;
}

describe('ratios', () => {
  test('model ratio: model(type) before model, configured before built-in, none when unknown (never one-api’s 30)', () => {
    const context = contextWith({ ModelRatio: JSON.stringify({ 'gpt-4o-mini(3)': 0.1, 'my-model': 2 }) });
    expect(modelRatio(context, 'gpt-4o-mini', 1)).toBe(0.075);
    expect(modelRatio(context, 'gpt-4o-mini', 3)).toBe(0.1);
    expect(modelRatio(context, 'my-model', 1)).toBe(2);
    expect(modelRatio(context, 'gpt-4', 1)).toBe(15);
    expect(modelRatio(context, 'llama3-8b-8192', 33)).toBe(0.15);
    expect(modelRatio(context, 'qwen-turbo-internet', 17)).toBe(1.4286);
    expect(modelRatio(context, 'nobody-knows', 1)).toBeUndefined();
  });

  test('completion ratio: explicit entries, then one-api’s family rules', () => {
    const context = contextWith();
    expect(completionRatio(context, 'whisper-1', 1)).toBe(0);
    expect(completionRatio(context, 'deepseek-chat', 36)).toBe(2);
    expect(completionRatio(context, 'deepseek-reasoner', 36)).toBeCloseTo(3.98, 2);
    const rules: [string, number][] = [
      ['gpt-3.5-turbo', 3],
      ['gpt-3.5-turbo-0125', 3],
      ['gpt-3.5-turbo-1106', 2],
      ['gpt-3.5-turbo-16k', 4 / 3],
      ['gpt-4o-2024-05-13', 3],
      ['gpt-4o-mini', 4],
      ['gpt-4-turbo', 3],
      ['gpt-4-1106-preview', 3],
      ['gpt-4', 2],
      ['o1-mini', 4],
      ['o3-mini', 1],
      ['chatgpt-4o-latest', 3],
      ['claude-3-haiku-20240307', 5],
      ['claude-2.1', 3],
      ['gemini-1.5-pro', 3],
      ['mistral-large-latest', 3],
      ['deepseek-coder', 2],
      ['command-r-plus', 5],
      ['llama3-70b-8192', 0.79 / 0.59],
      ['something', 1],
    ];
    for (const [model, ratio] of rules) expect(familyCompletionRatio(model), model).toBeCloseTo(ratio, 10);
  });

  test('group ratio from the option, 1 for unknown groups; log text with two decimals', () => {
    const context = contextWith({ GroupRatio: JSON.stringify({ default: 1, vip: 0.5 }) });
    expect(groupRatio(context, 'vip')).toBe(0.5);
    expect(groupRatio(context, 'nobody')).toBe(1);
    expect(ratioText(0.075, 1, 4)).toBe('倍率：0.07 × 1.00 × 4.00');
  });

  test('the worked example of §5.3a and the minimum charge', () => {
    expect(textQuota({ prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 }, 0.075, 4)).toBe(225);
    expect(textQuota({ prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 }, 0.01, 1)).toBe(1);
    expect(textQuota({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, 15, 1)).toBe(0);
    expect(textQuota({ prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 }, 0, 1)).toBe(0);
  });

  test('web searches: USD per 1,000 in quota units, times the group ratio, rounded up', () => {
    expect(webSearchQuota(2, 10, 500_000, 1)).toBe(10_000);
    expect(webSearchQuota(3, 10, 500_000, 0.5)).toBe(7_500);
    expect(webSearchQuota(1, 0.001, 500_000, 1)).toBe(1);
    expect(webSearchQuota(0, 10, 500_000, 1)).toBe(0);
  });

  test('images: size and quality factors, one-api’s validation', () => {
    expect(imagePrice('dall-e-3', '1024x1024', 'standard', 1, 20)).toBe(20_000);
    expect(imagePrice('dall-e-3', '1024x1024', 'hd', 1, 20)).toBe(40_000);
    expect(imagePrice('dall-e-3', '1792x1024', 'hd', 1, 20)).toBe(60_000);
    expect(imagePrice('dall-e-2', '512x512', '', 2, 10)).toBe(22_500);
    expect(imageRequestProblem('dall-e-3', 'cat', '1024x1024', 2)).toBe('invalid value of n');
    expect(imageRequestProblem('dall-e-2', 'x'.repeat(1001), '256x256', 1)).toBe('prompt is too long');
    expect(imageRequestProblem('dall-e-2', 'cat', '1024x1792', 1)).toBe('size not supported for this image model');
    expect(imageRequestProblem('flux', 'cat', 'any', 1)).toBeNull();
  });
});
