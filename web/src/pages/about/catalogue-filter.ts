import type { PriceUnit } from '../../lib/price';
import type { Capability, CatalogueEntry, Provider } from './catalogue-types';

export interface CatalogueFilter {
  provider: Provider | 'all';
  /** Case-insensitive substring of the model name. */
  name: string;
  capability: Capability | 'all';
  popularity: number | 'all';
  unit: PriceUnit;
}

/** Initial filter state (spec section 4). */
export const INITIAL_FILTER: CatalogueFilter = {
  provider: 'all',
  name: '',
  capability: 'all',
  popularity: 'all',
  unit: '1M',
};

/** Entries the server returned (to a visitor: the models served at all), matched by key. */
export function availableEntries(entries: readonly CatalogueEntry[], available: readonly string[]): CatalogueEntry[] {
  const names = new Set(available);
  return entries.filter((entry) => names.has(entry.key));
}

/** Applies every catalogue filter; capability, popularity and provider match exactly. */
export function filterCatalogue(entries: readonly CatalogueEntry[], filter: CatalogueFilter): CatalogueEntry[] {
  const name = filter.name.trim().toLowerCase();
  return entries.filter(
    (entry) =>
      (!name || entry.name.toLowerCase().includes(name)) &&
      (filter.capability === 'all' || entry.power === filter.capability) &&
      (filter.popularity === 'all' || entry.popularity === filter.popularity) &&
      (filter.provider === 'all' || entry.manufacturer === filter.provider),
  );
}
