import { describe, expect, it } from 'vitest';
import type { ModelPricing } from '../../api/pricing';
import { catalogueRows, filterCatalogue, guessProvider, INITIAL_FILTER, providersOf } from './catalogue-filter';
import { CATALOGUE } from './catalogue.data';
import { CAPABILITIES, PROVIDERS } from './catalogue-types';

const priced = (model: string): ModelPricing => ({
  model,
  source: 'catalogue',
  channel_type: 1,
  group_ratio: 1,
  price: { input: 1, output: 2 },
  ratio: null,
  quota_per_1k: { input: 500, output: 1000 },
  quota_per_1m: { input: 500_000, output: 1_000_000 },
  varies: false,
});

const everyModel = catalogueRows(
  CATALOGUE,
  CATALOGUE.map((entry) => priced(entry.key)),
);

describe('catalogue data', () => {
  it('holds about 140 unique models with spec fields', () => {
    expect(CATALOGUE.length).toBeGreaterThanOrEqual(130);
    expect(new Set(CATALOGUE.map((entry) => entry.key)).size).toBe(CATALOGUE.length);
    for (const entry of CATALOGUE) {
      expect(entry.name).toBe(entry.key);
      expect(entry.popularity).toBe(5);
      expect(PROVIDERS).toContain(entry.manufacturer);
      if (entry.power) expect(CAPABILITIES).toContain(entry.power);
    }
  });

  it('covers every provider', () => {
    expect(new Set(CATALOGUE.map((entry) => entry.manufacturer)).size).toBe(PROVIDERS.length);
  });
});

describe('catalogueRows', () => {
  it("shows the server's models with their prices: the list's in its order, then the others", () => {
    const rows = catalogueRows(CATALOGUE, ['not-in-catalogue', 'gpt-4o', 'deepseek-chat', 'glm-5'].map(priced));
    expect(rows.map((row) => [row.key, row.manufacturer, row.power])).toEqual([
      ['gpt-4o', 'openai', 'multimodal'],
      ['deepseek-chat', 'deepseek', 'chat'],
      ['not-in-catalogue', null, ''],
      ['glm-5', 'zhipu', ''],
    ]);
    expect(rows[0]?.pricing).toEqual(priced('gpt-4o'));
  });

  it('shows nothing when the server serves nothing', () => {
    expect(catalogueRows(CATALOGUE, [])).toEqual([]);
  });

  it("guesses a provider from the vendor's naming, or none", () => {
    expect(guessProvider('gpt-5')).toBe('openai');
    expect(guessProvider('o4-mini')).toBe('openai');
    expect(guessProvider('Doubao-seed-1.6')).toBe('doubao');
    expect(guessProvider('kimi-k2')).toBe('moonshot');
    expect(guessProvider('deepseek-v4')).toBe('deepseek');
    expect(guessProvider('claude-sonnet-4-5')).toBe('anthropic');
    expect(guessProvider('gemini-3-pro')).toBe('google');
    expect(guessProvider('omega')).toBeNull();
    // A name that says nothing, served by a one-vendor channel type (14 = Anthropic): that vendor.
    expect(guessProvider('omega', 14)).toBe('anthropic');
    expect(guessProvider('omega', 1)).toBeNull();
  });

  it('knows a dated release of a listed model, and lists only vendors that have models (issue 33)', () => {
    const rows = catalogueRows(CATALOGUE, [
      { ...priced('claude-sonnet-4-20250514'), channel_type: 14 },
      { ...priced('claude-sonnet-4-5-20250929'), channel_type: 14 },
      priced('gpt-4o'),
    ]);
    const dated = rows.find((row) => row.key === 'claude-sonnet-4-20250514');
    expect(dated).toMatchObject({ manufacturer: 'anthropic', power: 'multimodal' });
    expect(rows.find((row) => row.key === 'claude-sonnet-4-5-20250929')?.power).toBe('multimodal');
    expect(providersOf(rows)).toEqual(['openai', 'anthropic']);
  });
});

describe('filterCatalogue', () => {
  it('starts with every filter open', () => {
    expect(filterCatalogue(everyModel, INITIAL_FILTER)).toHaveLength(CATALOGUE.length);
    expect(INITIAL_FILTER).toEqual({ provider: 'all', name: '', capability: 'all', popularity: 'all', unit: '1M' });
  });

  it('searches names case-insensitively', () => {
    const keys = filterCatalogue(everyModel, { ...INITIAL_FILTER, name: 'GPT-4O-MINI' }).map((row) => row.key);
    expect(keys).toEqual(['gpt-4o-mini', 'gpt-4o-mini-2024-07-18']);
  });

  it('matches capability, popularity and provider exactly', () => {
    const vectors = filterCatalogue(everyModel, { ...INITIAL_FILTER, capability: 'vector', provider: 'openai' });
    expect(vectors.map((row) => row.key)).toEqual([
      'text-embedding-ada-002',
      'text-embedding-3-small',
      'text-embedding-3-large',
    ]);
    expect(filterCatalogue(everyModel, { ...INITIAL_FILTER, popularity: 4 })).toHaveLength(0);
    expect(filterCatalogue(everyModel, { ...INITIAL_FILTER, popularity: 5 })).toHaveLength(CATALOGUE.length);
    expect(filterCatalogue(everyModel, { ...INITIAL_FILTER, provider: 'deepseek' })).toHaveLength(3);
  });
});
