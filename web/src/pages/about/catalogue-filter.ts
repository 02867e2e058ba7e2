import type { ModelPricing } from '../../api/pricing';
import type { PriceUnit } from '../../lib/price';
import {
  MAX_POPULARITY,
  type Capability,
  type CatalogueEntry,
  type CatalogueRow,
  type Provider,
} from './catalogue-types';

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

/** Name prefixes of each provider's models, for models the embedded list lacks. */
const PROVIDER_PREFIXES: ReadonlyArray<[RegExp, Provider]> = [
  [
    /^(gpt-|chatgpt-|o\d(-|$)|text-embedding-|dall-e|whisper|tts-|davinci|babbage|omni-moderation|text-moderation)/,
    'openai',
  ],
  [/^doubao/, 'doubao'],
  [/^ernie/, 'ernie'],
  [/^(moonshot|kimi)/, 'moonshot'],
  [/^baichuan/, 'baichuan'],
  [/^(abab|minimax)/, 'minimax'],
  [/^yi-/, 'yi'],
  [/^step-/, 'stepfun'],
  [/^deepseek/, 'deepseek'],
  [/^(glm|chatglm|cogview|cogvideo|charglm|emohaa)/, 'zhipu'],
  [/^(spark|sparkdesk)/, 'spark'],
  [/^hunyuan/, 'hunyuan'],
  [/^360/, 'ai360'],
];

/** The provider a model's name suggests (its vendor's naming), or null when it suggests none of the catalogue's. */
export function guessProvider(model: string): Provider | null {
  const name = model.toLowerCase();
  return PROVIDER_PREFIXES.find(([prefix]) => prefix.test(name))?.[1] ?? null;
}

/**
 * The catalogue's rows: each model the server priced for the caller, with what the embedded list says of it
 * (matched by key), in the list's order; then the models the list lacks, in the server's order, each with the
 * provider its name suggests.
 */
export function catalogueRows(entries: readonly CatalogueEntry[], models: readonly ModelPricing[]): CatalogueRow[] {
  const served = new Map(models.map((pricing) => [pricing.model, pricing]));
  const listed = entries.flatMap((entry) => {
    const pricing = served.get(entry.key);
    return pricing ? [{ ...entry, pricing }] : [];
  });
  const known = new Set(entries.map((entry) => entry.key));
  const others = models
    .filter((pricing) => !known.has(pricing.model))
    .map((pricing): CatalogueRow => ({
      key: pricing.model,
      name: pricing.model,
      power: '',
      popularity: MAX_POPULARITY,
      manufacturer: guessProvider(pricing.model),
      pricing,
    }));
  return [...listed, ...others];
}

/** Applies every catalogue filter; capability, popularity and provider match exactly. */
export function filterCatalogue(rows: readonly CatalogueRow[], filter: CatalogueFilter): CatalogueRow[] {
  const name = filter.name.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (!name || row.name.toLowerCase().includes(name)) &&
      (filter.capability === 'all' || row.power === filter.capability) &&
      (filter.popularity === 'all' || row.popularity === filter.popularity) &&
      (filter.provider === 'all' || row.manufacturer === filter.provider),
  );
}
