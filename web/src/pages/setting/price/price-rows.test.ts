import type { EffectivePrice } from '@modelgate/wire';
import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../../../i18n';
import { dollarsOf } from './price-columns';
import { adminKeyOf, filterPrices } from './price-rows';
import { priceLines } from './price-summary';

const row = (fields: Partial<EffectivePrice>): EffectivePrice => ({
  model: 'gpt-4o',
  channel_type: null,
  group: '',
  source: 'admin',
  price: { input: 2, output: 8 },
  ratio: null,
  reference: '',
  note: '',
  ...fields,
});

describe('the price rows', () => {
  it("finds the key an admin's price is stored under", () => {
    const untyped = row({});
    const served = row({ channel_type: 1 });
    const typed = row({ channel_type: 3, price: { input: 1 } });
    const rows = [untyped, served, typed, row({ group: 'vip', price: { input: 1 } })];
    expect(adminKeyOf(untyped, rows)).toBe('gpt-4o');
    // Served on OpenAI and priced by the untyped key: the same price.
    expect(adminKeyOf(served, rows)).toBe('gpt-4o');
    // Priced otherwise on Azure: a key of its own.
    expect(adminKeyOf(typed, rows)).toBe('gpt-4o(3)');
    expect(adminKeyOf(row({ channel_type: 1 }), [row({ channel_type: 1 })])).toBe('gpt-4o(1)');
  });

  it('filters by a part of the model name and by source', () => {
    const rows = [
      row({}),
      row({ model: 'claude-sonnet-4-5', source: 'catalogue' }),
      row({ model: 'x', source: 'missing' }),
    ];
    expect(filterPrices(rows, { model: 'SONNET', source: 'all' }).map((entry) => entry.model)).toEqual([
      'claude-sonnet-4-5',
    ]);
    expect(filterPrices(rows, { model: '', source: 'missing' }).map((entry) => entry.model)).toEqual(['x']);
  });

  it('turns a ratio into dollars at the quota per dollar', () => {
    const ratio = row({ source: 'ratio', price: null, ratio: { model_ratio: 2.5, completion_ratio: 4 } });
    expect(dollarsOf(ratio, 500_000)).toEqual({ input: 5, output: 20 });
    expect(dollarsOf(row({ source: 'missing', price: null }), 500_000)).toBeNull();
  });
});

describe('price summaries', () => {
  beforeAll(async () => {
    initI18n();
    await changeLanguage('en');
  });

  it('writes a price in short lines, tiers last', () => {
    const en = i18n.getFixedT('en');
    expect(
      priceLines(
        {
          input: 3,
          output: 15,
          cache_read: 0.3,
          per_web_search: 0.01,
          tiers: [{ above: 200_000, input: 6, output: 22.5 }],
        },
        en,
      ),
    ).toEqual([
      'Per 1M tokens: Input $3, Output $15, Cache read $0.3',
      '$0.01 per web search',
      '> 200K: Input $6, Output $22.5',
    ]);
  });
});
