import { findProvider } from '@pydantic/genai-prices';
import type { ListPrice } from '@modelgate/wire';
import { describe, expect, test } from 'vitest';
import { ChannelType } from '../channel/channel.constants.js';
import { cataloguePrice, fromGenaiPrice } from './catalogue.js';
import { providersOf } from './channel-providers.js';
import { readModelsDev } from './models-dev.js';
import supplement from './catalogue-supplement.json' with { type: 'json' };

const now = new Date('2026-11-25T10:00:00Z');

describe('the built-in catalogue (@pydantic/genai-prices 0.1.8)', () => {
  test('Claude Sonnet 4.5 on an Anthropic channel: cache prices, both write TTLs, the 200K tier, web search', () => {
    const price = cataloguePrice('claude-sonnet-4-5-20250929', ChannelType.Anthropic, now);
    expect(price?.list).toEqual({
      input: 3,
      cache_read: 0.3,
      cache_write: 3.75,
      cache_write_1h: 6,
      output: 15,
      per_web_search: 0.01,
      tiers: [{ above: 200_000, input: 6, cache_read: 0.6, cache_write: 7.5, cache_write_1h: 12, output: 22.5 }],
    });
    expect(price?.reference).toBe('@pydantic/genai-prices 0.1.8: anthropic/claude-sonnet-4-5');
  });

  test('Gemini 2.5 Pro on a Gemini channel: the 200K tier', () => {
    const price = cataloguePrice('gemini-2.5-pro', ChannelType.Gemini, now);
    expect(price?.list).toMatchObject({ input: 1.25, cache_read: 0.125, output: 10 });
    expect(price?.list.tiers).toEqual([{ above: 200_000, input: 2.5, cache_read: 0.25, output: 15 }]);
  });

  test('DeepSeek’s off-peak hours: the price in force at the call’s time', () => {
    const peak = cataloguePrice('deepseek-chat', ChannelType.DeepSeek, now);
    const offPeak = cataloguePrice('deepseek-chat', ChannelType.DeepSeek, new Date('2026-11-25T20:00:00Z'));
    expect(peak?.list).toEqual({ input: 0.27, cache_read: 0.07, output: 1.1 });
    expect(offPeak?.list).toEqual({ input: 0.135, cache_read: 0.035, output: 0.55 });
  });

  test('a channel relaying any vendor prices a model by its name; a vendor channel only by its own list', () => {
    expect(cataloguePrice('gpt-4o', ChannelType.Custom, now)?.list).toMatchObject({ input: 2.5, output: 10 });
    expect(cataloguePrice('claude-sonnet-4-5', ChannelType.OpenAICompatible, now)?.list.input).toBe(3);
    expect(cataloguePrice('gpt-4o', ChannelType.Doubao, now)).toBeNull();
  });

  test('vendors neither the package nor the supplement lists have no catalogue price', () => {
    expect(cataloguePrice('qwen-plus', ChannelType.Ali, now)).toBeNull();
    expect(cataloguePrice('doubao-seed-1-6-251015', ChannelType.Doubao, now)).toBeNull();
    expect(cataloguePrice('ernie-4.5-turbo-128k', ChannelType.BaiduV2, now)).toBeNull();
    expect(cataloguePrice('hunyuan-turbos-latest', ChannelType.Tencent, now)).toBeNull();
    expect(cataloguePrice('nobody-knows', ChannelType.Custom, now)).toBeNull();
  });

  test('a model priced only in units this price model lacks gets no price rather than a wrong one', () => {
    expect(fromGenaiPrice({ input_document_kpages: 1 })).toBeNull();
    expect(fromGenaiPrice({})).toEqual({});
    expect(fromGenaiPrice({ requests_kcount: 12, input_mtok: 1 })).toEqual({ per_call: 0.012, input: 1 });
  });

  test('prices per hour, per 1K searches and per 1K requests become exact decimals per unit', () => {
    // 0.36 US$ an hour / 3600 is 0.00009999999999999999 in floating point.
    expect(cataloguePrice('whisper-1', ChannelType.OpenAI, now)?.list.per_audio_second).toBe(0.0001);
    expect(cataloguePrice('whisper-large-v3', ChannelType.Groq, now)?.list.per_audio_second).toBe(0.0000308333333333);
    expect(cataloguePrice('claude-haiku-4-5', ChannelType.Anthropic, now)?.list.per_web_search).toBe(0.01);
    expect(fromGenaiPrice({ requests_kcount: 0.7, audio_hours: 0.18 })).toEqual({
      per_call: 0.0007,
      per_audio_second: 0.00005,
    });
  });

  test('no price of any model the channel types look up carries float noise', () => {
    const providerIds = new Set(Object.values(ChannelType).flatMap((type) => providersOf(type)));
    const noisy: string[] = [];
    let checked = 0;
    const check = (where: string, prices: Omit<ListPrice, 'tiers'>) => {
      for (const [key, value] of Object.entries(prices)) {
        checked++;
        if (typeof value === 'number' && value !== Number(value.toPrecision(12)))
          noisy.push(`${where} ${key} ${value}`);
      }
    };
    for (const providerId of providerIds) {
      for (const model of findProvider({ providerId })?.models ?? []) {
        const variants = Array.isArray(model.prices) ? model.prices.map((variant) => variant.prices) : [model.prices];
        for (const variant of variants) {
          const { tiers = [], ...base } = fromGenaiPrice(variant) ?? {};
          check(`${providerId}/${model.id}`, base);
          for (const { above, ...tier } of tiers) check(`${providerId}/${model.id} above ${above}`, tier);
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
    expect(noisy).toEqual([]);
  });

  test('every supplement entry names its page and the date it was read', () => {
    const { prices, skipped } = readModelsDev(supplement);
    expect(skipped).toEqual([]);
    const entries = supplement as Record<string, { models: Record<string, { source?: string; checked?: string }> }>;
    for (const { provider, model } of prices) {
      const entry = entries[provider]?.models[model];
      expect(entry?.source, model).toMatch(/^https:\/\//);
      expect(entry?.checked, model).toMatch(/^2026-\d\d-\d\d$/);
    }
  });
});

describe('models.dev files', () => {
  test('costs with cache prices, context_over_200k and tiers become list prices; others are skipped with why', () => {
    const file = {
      google: {
        models: {
          'gemini-3-pro-preview': {
            id: 'gemini-3-pro-preview',
            cost: {
              input: 2,
              output: 12,
              cache_read: 0.2,
              context_over_200k: { input: 4, output: 18, cache_read: 0.4 },
            },
          },
          'gemini-embedding-001': { cost: { input: 0.15, output: 0 } },
        },
      },
      openai: {
        models: {
          'gpt-5.5': {
            cost: {
              input: 5,
              output: 30,
              cache_read: 0.5,
              tiers: [{ input: 10, output: 45, tier: { type: 'context', size: 272_000 } }],
            },
          },
          'o-odd': { cost: { input: 1, output: 4, reasoning: 8 } },
          'x-new': { cost: { input: 1, output: 2, video_second: 3 } },
          'no-cost': { name: 'no cost' },
        },
      },
    };
    const { prices, skipped } = readModelsDev(file);
    expect(prices).toEqual([
      {
        provider: 'google',
        model: 'gemini-3-pro-preview',
        price: {
          input: 2,
          output: 12,
          cache_read: 0.2,
          tiers: [{ above: 200_000, input: 4, output: 18, cache_read: 0.4 }],
        },
      },
      { provider: 'google', model: 'gemini-embedding-001', price: { input: 0.15, output: 0 } },
      {
        provider: 'openai',
        model: 'gpt-5.5',
        price: { input: 5, output: 30, cache_read: 0.5, tiers: [{ above: 272_000, input: 10, output: 45 }] },
      },
    ]);
    expect(skipped).toEqual([
      { provider: 'openai', model: 'o-odd', reason: 'reasoning is priced apart from output' },
      { provider: 'openai', model: 'x-new', reason: 'unknown cost fields: video_second' },
      { provider: 'openai', model: 'no-cost', reason: 'no cost' },
    ]);
    expect(readModelsDev(file, ['google']).prices).toHaveLength(2);
  });
});
