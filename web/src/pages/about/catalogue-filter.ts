import type { ModelPricing } from '../../api/pricing';
import type { PriceUnit } from '../../lib/price';
import {
  MAX_POPULARITY,
  PROVIDERS,
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
  [/^claude/, 'anthropic'],
  [/^(gemini|gemma)/, 'google'],
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

/** Channel types that serve one vendor's models only: Anthropic, AWS Claude; Gemini. */
const VENDOR_CHANNEL_TYPES: Readonly<Record<number, Provider>> = { 14: 'anthropic', 33: 'anthropic', 24: 'google' };

/**
 * The provider a model's name suggests (its vendor's naming), else the vendor of the one-vendor channel type
 * that prices it, or null.
 */
export function guessProvider(model: string, channelType?: number): Provider | null {
  const name = model.toLowerCase();
  const byName = PROVIDER_PREFIXES.find(([prefix]) => prefix.test(name))?.[1];
  return byName ?? (channelType === undefined ? null : (VENDOR_CHANNEL_TYPES[channelType] ?? null));
}

/**
 * The embedded entry of a served model: its exact key, else the longest key it starts with followed by a
 * dash (a dated release such as claude-sonnet-4-20250514 is claude-sonnet-4).
 */
function entryOf(byKey: ReadonlyMap<string, CatalogueEntry>, model: string): CatalogueEntry | undefined {
  const exact = byKey.get(model);
  if (exact) return exact;
  let best: CatalogueEntry | undefined;
  for (const [key, entry] of byKey)
    if (
      model.startsWith(`${key}-`) &&
      /^-(\d{8}|latest)$/.test(model.slice(key.length)) &&
      (!best || key.length > best.key.length)
    )
      best = entry;
  return best;
}

/** The vendors that have at least one row, in the strip's order. */
export function providersOf(rows: readonly CatalogueRow[]): Provider[] {
  const present = new Set(rows.map((row) => row.manufacturer));
  return PROVIDERS.filter((provider) => present.has(provider));
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
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  const others = models
    .filter((pricing) => !known.has(pricing.model))
    .map((pricing): CatalogueRow => {
      const entry = entryOf(byKey, pricing.model);
      return {
        key: pricing.model,
        name: pricing.model,
        power: entry?.power ?? '',
        popularity: MAX_POPULARITY,
        manufacturer: entry?.manufacturer ?? guessProvider(pricing.model, pricing.channel_type),
        ...(entry?.intro ? { intro: entry.intro } : {}),
        pricing,
      };
    });
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
