import type { ListPrice } from '@modelgate/wire';
import pino from 'pino';
import { describe, expect, test } from 'vitest';
import type { AppContext } from '../../context.js';
import { completionRatio, modelRatio } from './ratios.js';
import { textQuota, webSearchQuota } from '../../../test/one-api-formulas.js';
import { OptionStore } from '../option/option.store.js';
import type { CallUsage, ResolvedPrice } from './price.js';
import { AttemptPrice, minimumCutOutput, priceCall, settleReceipt } from './price-call.js';

const quotaPerUnit = 500_000;

const listed = (model: string, list: ListPrice, groupPrice = false): ResolvedPrice => ({
  model,
  source: 'catalogue',
  price: { kind: 'list', list },
  groupPrice,
  reference: 'test',
});

/** The charge of each line, by item. */
const linesOf = (result: ReturnType<typeof priceCall>) =>
  Object.fromEntries(result.receipt.lines.map((line) => [line.item, line.quota]));

const sumOfLines = (result: ReturnType<typeof priceCall>) =>
  result.receipt.lines.reduce((sum, line) => sum + line.quota, 0);

describe('priceCall with the vendors’ documented usages', () => {
  test('OpenAI cached input: the prompt caching guide’s usage on gpt-4o (US$2.50 / 1.25 cached / 10)', () => {
    // usage: prompt_tokens 2006, prompt_tokens_details.cached_tokens 1920, completion_tokens 300
    const usage: CallUsage = { input: 2006 - 1920, cache_read: 1920, output: 300 };
    const result = priceCall(usage, listed('gpt-4o', { input: 2.5, cache_read: 1.25, output: 10 }), 1, quotaPerUnit);
    // US$ 86 × 2.5 + 1920 × 1.25 + 300 × 10 per 1M = 0.005615 → 2807.5 quota, rounded up once
    expect(result.quota).toBe(2808);
    expect(linesOf(result)).toEqual({ input: 108, cache_read: 1200, output: 1500 });
    expect(sumOfLines(result)).toBe(result.quota);
    expect(result.receipt).toMatchObject({ tier: null, prompt_tokens: 2006, group_ratio: 1 });
  });

  test('Anthropic cache read and both write TTLs: the prompt caching page’s usage on Claude Sonnet 4.5', () => {
    // usage: input_tokens 2048, cache_read_input_tokens 1800, cache_creation_input_tokens 248 of which
    // ephemeral_5m_input_tokens 148 and ephemeral_1h_input_tokens 100, output_tokens 503
    const usage: CallUsage = { input: 2048, cache_read: 1800, cache_write: 148, cache_write_1h: 100, output: 503 };
    const sonnet: ListPrice = { input: 3, cache_read: 0.3, cache_write: 3.75, cache_write_1h: 6, output: 15 };
    const result = priceCall(usage, listed('claude-sonnet-4-5', sonnet), 1, quotaPerUnit);
    // US$ (6144 + 540 + 555 + 600 + 7545) per 1M = 0.015384 → 7692 quota exactly
    expect(result.quota).toBe(7692);
    expect(result.receipt.lines.map((line) => [line.item, line.unit_price])).toEqual([
      ['input', 3],
      ['cache_read', 0.3],
      ['cache_write', 3.75],
      ['cache_write_1h', 6],
      ['output', 15],
    ]);
    expect(sumOfLines(result)).toBe(7692);
  });

  test('a 1-hour write with no price of its own is charged as a 5-minute one, that one as input', () => {
    const usage: CallUsage = { input: 1000, cache_write: 1000, cache_write_1h: 1000, output: 0 };
    const onlyWrite = priceCall(usage, listed('m', { input: 2, cache_write: 4 }), 1, quotaPerUnit);
    expect(linesOf(onlyWrite)).toEqual({ input: 1000, cache_write: 2000, cache_write_1h: 2000 });
    const inputOnly = priceCall(usage, listed('m', { input: 2 }), 1, quotaPerUnit);
    expect(inputOnly.quota).toBe(3000);
  });

  test('Gemini cached content and the 200K tier: the context caching page’s usage on Gemini 2.5 Pro', () => {
    const pro: ListPrice = {
      input: 1.25,
      cache_read: 0.125,
      output: 10,
      tiers: [{ above: 200_000, input: 2.5, cache_read: 0.25, output: 15 }],
    };
    // usage_metadata: prompt_token_count 696219, cached_content_token_count 696190, candidates_token_count 214
    const long: CallUsage = { input: 696_219 - 696_190, cache_read: 696_190, output: 214 };
    const result = priceCall(long, listed('gemini-2.5-pro', pro), 1, quotaPerUnit);
    // above 200K the whole request takes the tier: US$ (29 × 2.5 + 696190 × 0.25 + 214 × 15) per 1M
    expect(result.receipt.tier).toBe(200_000);
    expect(result.quota).toBe(88_665);
    expect(linesOf(result)).toEqual({ input: 36, cache_read: 87_024, output: 1605 });
    // At exactly 200,000 prompt tokens the base prices hold; one more token switches the whole request.
    const atThreshold = priceCall(
      { input: 150_000, cache_read: 50_000, output: 1000 },
      listed('g', pro),
      1,
      quotaPerUnit,
    );
    expect(atThreshold.receipt.tier).toBeNull();
    expect(atThreshold.quota).toBe(101_875);
    const above = priceCall({ input: 150_001, cache_read: 50_000, output: 1000 }, listed('g', pro), 1, quotaPerUnit);
    expect(above.receipt.tier).toBe(200_000);
    expect(above.quota).toBe(201_252);
  });

  test('DeepSeek cache hit: prompt_cache_hit_tokens and prompt_cache_miss_tokens on deepseek-chat', () => {
    // usage: prompt_cache_hit_tokens 600, prompt_cache_miss_tokens 400, completion_tokens 200
    const usage: CallUsage = { input: 400, cache_read: 600, output: 200 };
    const result = priceCall(
      usage,
      listed('deepseek-chat', { input: 0.28, cache_read: 0.028, output: 0.42 }),
      1,
      quotaPerUnit,
    );
    // US$ (112 + 16.8 + 84) per 1M = 0.0002128 → 106.4 quota → 107
    expect(result.quota).toBe(107);
    expect(sumOfLines(result)).toBe(107);
  });

  test('a per-call model: the call price, times the group ratio, alone or with tokens', () => {
    const perCall = priceCall({ input: 0, output: 0 }, listed('flux-pro', { per_call: 0.04 }), 0.8, quotaPerUnit);
    expect(perCall.quota).toBe(16_000);
    expect(perCall.receipt.lines).toEqual([
      { item: 'per_call', count: 1, unit_price: 0.04, unit: 'usd_per_unit', quota: 16_000 },
    ]);
    // Perplexity sonar: US$1 per 1M tokens each way and US$12 per 1,000 requests
    const sonar = priceCall(
      { input: 300, output: 700 },
      listed('sonar', { input: 1, output: 1, per_call: 0.012 }),
      1,
      quotaPerUnit,
    );
    expect(linesOf(sonar)).toEqual({ input: 150, output: 350, per_call: 6000 });
    expect(sonar.quota).toBe(6500);
  });

  test('web search: US$10 per 1,000 searches (Anthropic’s price) on top of the tokens', () => {
    const price = listed('claude-sonnet-4-5', { input: 3, output: 15, per_web_search: 0.01 });
    const result = priceCall({ input: 10_000, output: 500, web_searches: 3 }, price, 1, quotaPerUnit);
    expect(linesOf(result)).toEqual({ input: 15_000, output: 3750, web_search: 15_000 });
    expect(result.quota).toBe(33_750);
  });

  test('per-unit prices: images and seconds of audio', () => {
    const images = priceCall(
      { input: 0, output: 0, images: 2, calls: 0 },
      listed('dall-e-3', { per_image: 0.04 }),
      1,
      quotaPerUnit,
    );
    expect(images.quota).toBe(40_000);
    const whisper = priceCall(
      { input: 0, output: 0, audio_seconds: 61, calls: 0 },
      listed('whisper-1', { per_audio_second: 0.0001 }),
      1,
      quotaPerUnit,
    );
    expect(whisper.quota).toBe(3050);
  });

  test('exact decimals: 3,000 output tokens at US$1.10 per 1M are 1,650 quota, not 1,651', () => {
    expect(((3000 * 1.1) / 1_000_000) * quotaPerUnit).toBe(1650.0000000000002);
    const result = priceCall({ input: 0, output: 3000 }, listed('m', { output: 1.1 }), 1, quotaPerUnit);
    expect(result.quota).toBe(1650);
    const vip = priceCall({ input: 0, output: 3000 }, listed('m', { output: 1.1 }), 0.9, quotaPerUnit);
    expect(vip.quota).toBe(1485);
  });

  test('a group’s own price replaces the group ratio', () => {
    const result = priceCall({ input: 1000, output: 0 }, listed('m', { input: 2 }, true), 0.5, quotaPerUnit);
    expect(result.quota).toBe(1000);
    expect(result.receipt).toMatchObject({ group_ratio: 1, group_price: true });
  });

  test('the lines add up to the charge for any usage and price', () => {
    let seed = 7;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % limit;
    };
    for (let round = 0; round < 500; round++) {
      const usage: CallUsage = {
        input: next(300_000),
        cache_read: next(5000),
        cache_write: next(3000),
        cache_write_1h: next(2000),
        input_audio: next(100),
        output: next(9000),
        output_audio: next(50),
        web_searches: next(3),
      };
      const price: ListPrice = {
        input: next(1000) / 97,
        output: next(1000) / 13,
        cache_read: next(100) / 7,
        per_web_search: next(100) / 1000,
        tiers: [{ above: 128_000, input: next(1000) / 31 }],
      };
      const result = priceCall(usage, listed('m', price), [1, 0.75, 1.3][next(3)]!, quotaPerUnit);
      expect(sumOfLines(result)).toBe(result.quota);
    }
  });

  test('a settled receipt records the hold and what was given back or charged on top', () => {
    const { receipt } = priceCall({ input: 1000, output: 0 }, listed('m', { input: 2 }), 1, quotaPerUnit);
    expect(settleReceipt(receipt, 1500)).toMatchObject({
      quota: 1000,
      reserved: 1500,
      refunded: 500,
      charged_on_top: 0,
    });
    expect(settleReceipt(receipt, 400)).toMatchObject({ reserved: 400, refunded: 0, charged_on_top: 600 });
  });
});

/** An exact fraction of a number as written (its shortest round-trip form), independent of exact.ts. */
function fraction(value: number): [bigint, bigint] {
  const [mantissa = '0', exponent = '0'] = String(value).split('e');
  const [whole = '0', decimals = ''] = mantissa.split('.');
  const scale = decimals.length - Number(exponent);
  const units = BigInt(whole + decimals);
  return scale >= 0 ? [units, 10n ** BigInt(scale)] : [units * 10n ** BigInt(-scale), 1n];
}

/** ceil(Σ count × US$/1M × QuotaPerUnit × group ratio) over token classes priced on their own, in BigInt. */
function exactTokenQuota(counts: [number, number][], groupRatio: number): number {
  let numerator = 0n;
  let denominator = 1n;
  for (const [count, price] of counts) {
    const [units, scale] = fraction(price);
    // a/b + c/d = (ad + cb) / bd
    numerator = numerator * scale + BigInt(count) * units * denominator;
    denominator *= scale;
  }
  const [ratioUnits, ratioScale] = fraction(groupRatio);
  numerator *= BigInt(quotaPerUnit) * ratioUnits;
  denominator *= ratioScale * 1_000_000n;
  return Number((numerator + denominator - 1n) / denominator);
}

describe('one price per attempt', () => {
  test('the quota alone is the receipt’s, and exact whether doubles or BigInt count it', () => {
    let seed = 11;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % limit;
    };
    for (let round = 0; round < 400; round++) {
      // Every fourth call is large enough that count × price × QuotaPerUnit passes 2^53.
      const large = round % 4 === 1 ? 1_000_000 : 1;
      const usage: CallUsage = { input: next(300_000) * large, cache_read: next(5000), output: next(9000) * large };
      // Prices written with a few decimals count in doubles; long fractions (x / 9973) need BigInt.
      const short = round % 2 === 1;
      const list: ListPrice = short
        ? { input: next(100_000) / 1000, output: next(10_000) / 100, cache_read: next(1000) / 10_000 }
        : { input: next(100_000) / 9973, output: next(1000) / 13, cache_read: next(100) / 7 };
      const groupRatio = [1, 0.75, 1.3, 0.123457][next(4)]!;
      const price = new AttemptPrice(listed('m', list), groupRatio, quotaPerUnit);
      const receipt = price.charge(usage);
      const expected = exactTokenQuota(
        [
          [usage.input, list.input!],
          [usage.cache_read!, list.cache_read!],
          [usage.output, list.output!],
        ],
        groupRatio,
      );
      expect(receipt.quota, `round ${round}`).toBe(expected);
      expect(price.quota(usage), `round ${round}`).toBe(expected);
      expect(receipt.lines.reduce((sum, line) => sum + line.quota, 0)).toBe(expected);
    }
  });

  test('the hold: the whole price of the ceiling, a floor at 64 output tokens, and the output a cut hold pays', () => {
    const price = new AttemptPrice(listed('m', { input: 3, output: 15 }), 1, quotaPerUnit);
    const hold = price.hold(1000, 4096, 2);
    expect(hold.amount).toBe(price.quota({ input: 1000, output: 4096, web_searches: 2 }));
    expect(hold.cut!.floor()).toBe(price.quota({ input: 1000, output: minimumCutOutput, web_searches: 2 }));
    const held = Math.floor(hold.amount / 3);
    const output = hold.cut!.outputFor(held);
    expect(price.quota({ input: 1000, output, web_searches: 2 })).toBeLessThanOrEqual(held);
    expect(price.quota({ input: 1000, output: output + 1, web_searches: 2 })).toBeGreaterThan(held);
    expect(price.hold(1000, null)).toEqual({ amount: price.quota({ input: 1000, output: 0 }) });
  });
});

function contextWith(options: Record<string, string> = {}): AppContext {
  const store = new OptionStore();
  for (const [key, value] of Object.entries(options)) store.apply(key, value);
  return { options: store, logger: pino({ level: 'silent' }) } as unknown as AppContext;
}

describe('a ratio price charges exactly what one-api’s formula charges', () => {
  const context = contextWith({
    ModelRatio: JSON.stringify({ 'gpt-4o-mini': 0.075, 'gpt-4': 15, 'claude-3-5-sonnet-20240620': 1.5, odd: 0.0333 }),
  });
  const models = [
    'gpt-4o-mini',
    'gpt-4',
    'gpt-3.5-turbo',
    'claude-3-5-sonnet-20240620',
    'deepseek-reasoner',
    'odd',
    'whisper-1',
  ];
  const usages: [number, number][] = [
    [1000, 500],
    [1, 0],
    [0, 1],
    [0, 0],
    [12_345, 6789],
    [3, 7],
    [199_999, 1],
  ];
  const groupRatios = [1, 0.5, 0.3, 1.7, 0];

  test.each(models)('%s: every usage and group ratio, bit for bit', (model) => {
    for (const [prompt, completion] of usages)
      for (const groupRatio of groupRatios) {
        const ratio = {
          model_ratio: modelRatio(context, model, 1)!,
          completion_ratio: completionRatio(context, model, 1),
          web_searches_per_1000: 10,
        };
        const resolved: ResolvedPrice = {
          model,
          source: 'ratio',
          price: { kind: 'ratio', ratio },
          groupPrice: false,
          reference: '',
        };
        // The prompt may be split into classes (a cache read): one-api's prompt is their sum.
        const usage: CallUsage = {
          input: prompt - Math.floor(prompt / 3),
          cache_read: Math.floor(prompt / 3),
          output: completion,
        };
        const result = priceCall(usage, resolved, groupRatio, quotaPerUnit);
        const oneApi = textQuota(
          { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
          ratio.model_ratio * groupRatio,
          ratio.completion_ratio,
        );
        expect(result.quota, `${prompt}/${completion} × ${groupRatio}`).toBe(oneApi);
        expect(sumOfLines(result)).toBe(oneApi);
      }
  });

  test('web searches on a ratio price: ModelGate’s search charge as before', () => {
    const ratio = { model_ratio: 1.5, completion_ratio: 5, web_searches_per_1000: 10 };
    const resolved: ResolvedPrice = {
      model: 'c',
      source: 'ratio',
      price: { kind: 'ratio', ratio },
      groupPrice: false,
      reference: '',
    };
    const result = priceCall({ input: 100, output: 10, web_searches: 3 }, resolved, 0.7, quotaPerUnit);
    const tokens = textQuota({ prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 }, 1.5 * 0.7, 5);
    expect(result.quota).toBe(tokens + webSearchQuota(3, 10, quotaPerUnit, 0.7));
  });
});
