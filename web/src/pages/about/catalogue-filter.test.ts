import { describe, expect, it } from 'vitest';
import { availableEntries, filterCatalogue, INITIAL_FILTER } from './catalogue-filter';
import { CATALOGUE } from './catalogue.data';
import { CAPABILITIES, PROVIDERS } from './catalogue-types';

describe('catalogue data', () => {
  it('holds about 140 unique models with spec fields', () => {
    expect(CATALOGUE.length).toBeGreaterThanOrEqual(130);
    expect(new Set(CATALOGUE.map((entry) => entry.key)).size).toBe(CATALOGUE.length);
    for (const entry of CATALOGUE) {
      expect(entry.name).toBe(entry.key);
      expect(entry.popularity).toBe(5);
      expect(entry.magnification).toMatch(/^[\d.]+\/[\d.]+$/);
      expect(entry.price).toMatch(/^\$[\d.]+；\$[\d.]+$/);
      expect(PROVIDERS).toContain(entry.manufacturer);
      if (entry.power) expect(CAPABILITIES).toContain(entry.power);
    }
  });

  it('covers every provider', () => {
    expect(new Set(CATALOGUE.map((entry) => entry.manufacturer)).size).toBe(PROVIDERS.length);
  });
});

describe('availableEntries', () => {
  it('keeps only models the server returned, matched by key', () => {
    const shown = availableEntries(CATALOGUE, ['gpt-4o', 'deepseek-chat', 'not-in-catalogue']);
    expect(shown.map((entry) => entry.key)).toEqual(['gpt-4o', 'deepseek-chat']);
  });

  it('shows nothing when the server serves nothing', () => {
    expect(availableEntries(CATALOGUE, [])).toEqual([]);
  });
});

describe('filterCatalogue', () => {
  it('starts with every filter open', () => {
    expect(filterCatalogue(CATALOGUE, INITIAL_FILTER)).toHaveLength(CATALOGUE.length);
    expect(INITIAL_FILTER).toEqual({ provider: 'all', name: '', capability: 'all', popularity: 'all', unit: '1M' });
  });

  it('searches names case-insensitively', () => {
    const keys = filterCatalogue(CATALOGUE, { ...INITIAL_FILTER, name: 'GPT-4O-MINI' }).map((entry) => entry.key);
    expect(keys).toEqual(['gpt-4o-mini', 'gpt-4o-mini-2024-07-18']);
  });

  it('matches capability, popularity and provider exactly', () => {
    const vectors = filterCatalogue(CATALOGUE, { ...INITIAL_FILTER, capability: 'vector', provider: 'openai' });
    expect(vectors.map((entry) => entry.key)).toEqual([
      'text-embedding-ada-002',
      'text-embedding-3-small',
      'text-embedding-3-large',
    ]);
    expect(filterCatalogue(CATALOGUE, { ...INITIAL_FILTER, popularity: 4 })).toHaveLength(0);
    expect(filterCatalogue(CATALOGUE, { ...INITIAL_FILTER, popularity: 5 })).toHaveLength(CATALOGUE.length);
    expect(filterCatalogue(CATALOGUE, { ...INITIAL_FILTER, provider: 'deepseek' })).toHaveLength(3);
  });
});
