import { calcPrice, findProvider, type ModelInfo, type ModelPrice } from '@pydantic/genai-prices';
import type { ListPrice, PriceTier, TokenPrices } from '@modelgate/wire';
import supplementFile from './catalogue-supplement.json' with { type: 'json' };
import { pricedByModelName, providersOf } from './channel-providers.js';
import { readModelsDev } from './models-dev.js';

/**
 * The built-in list prices: @pydantic/genai-prices (its bundled data only: nothing is fetched) for the
 * vendors it covers, and catalogue-supplement.json, a models.dev-format file kept by hand with each entry's
 * page and date, for the vendors it lacks (decision 0026).
 */
export interface CataloguePrice {
  list: ListPrice;
  reference: string;
}

const packageVersion = '@pydantic/genai-prices 0.1.8';

/** genai-prices' keys this price model holds: token classes per 1M, and units with their divisor. */
const tokenKeys: Record<string, keyof TokenPrices> = {
  input_mtok: 'input',
  output_mtok: 'output',
  cache_read_mtok: 'cache_read',
  cache_write_mtok: 'cache_write',
  cache_write_5m_mtok: 'cache_write',
  cache_write_1h_mtok: 'cache_write_1h',
  input_audio_mtok: 'input_audio',
  output_audio_mtok: 'output_audio',
  input_image_mtok: 'input_image',
  output_image_mtok: 'output_image',
};
const unitKeys: Record<string, [keyof ListPrice, number]> = {
  requests_kcount: ['per_call', 1000],
  web_searches_kcount: ['per_web_search', 1000],
  audio_hours: ['per_audio_second', 3600],
  input_audio_hours: ['per_audio_second', 3600],
};

/**
 * A price as the decimal it is meant to be: 0.36 US$ an hour / 3600 is 0.0001 a second, where binary floating
 * point says 0.00009999999999999999 (and the receipt would show it). Twelve significant digits keep every
 * written price whole and cut only float noise, also in the package's own data (OpenRouter's 1/12 as
 * 0.08333333333333334).
 */
const cleaned = (price: number) => Number(price.toPrecision(12));

type Tiered = { base: number; tiers: { start: number; price: number }[] };
const isTiered = (value: unknown): value is Tiered => typeof value === 'object' && value !== null && 'base' in value;

/**
 * genai-prices' price as a list price. Its tiers are per key ("above `start` prompt tokens, this key costs
 * …", the whole request switching); here a tier holds every class, so each threshold becomes one tier with
 * each key's price for prompts just above it. Null when none of its keys is held here (an OCR model priced
 * per page, say), so such a model is not charged a wrong price.
 */
export function fromGenaiPrice(price: ModelPrice): ListPrice | null {
  const list: ListPrice = {};
  const thresholds = new Set<number>();
  let held = Object.keys(price).length === 0;
  for (const [key, value] of Object.entries(price)) {
    if (value === undefined) continue;
    const unit = unitKeys[key];
    if (unit && typeof value === 'number') {
      Object.assign(list, { [unit[0]]: cleaned(value / unit[1]) });
      held = true;
    }
    const tokenClass = tokenKeys[key];
    if (!tokenClass) continue;
    held = true;
    if (isTiered(value)) {
      list[tokenClass] = cleaned(value.base);
      for (const tier of value.tiers) thresholds.add(tier.start);
    } else if (typeof value === 'number') list[tokenClass] = cleaned(value);
  }
  if (!held) return null;
  const tiers = [...thresholds]
    .sort((a, b) => a - b)
    .map((above) => {
      const tier: PriceTier = { above };
      for (const [key, value] of Object.entries(price)) {
        const tokenClass = tokenKeys[key];
        if (!tokenClass || !isTiered(value)) continue;
        tier[tokenClass] = cleaned(value.tiers.filter((step) => step.start <= above).at(-1)?.price ?? value.base);
      }
      return tier;
    });
  return tiers.length > 0 ? { ...list, tiers } : list;
}

const minutesOfDay = (time: string) => {
  const [hours = 0, minutes = 0, seconds = 0] = time.replace(/Z$/, '').split(':').map(Number);
  return hours * 3600 + minutes * 60 + seconds;
};

/** The price in force at `at`: the last constrained price that holds (a start date, or a time of day in UTC). */
function priceAt(info: ModelInfo, at: Date): ModelPrice {
  if (!Array.isArray(info.prices)) return info.prices;
  const seconds = at.getUTCHours() * 3600 + at.getUTCMinutes() * 60 + at.getUTCSeconds();
  for (let index = info.prices.length - 1; index >= 0; index--) {
    const { constraint, prices } = info.prices[index]!;
    if (!constraint) return prices;
    if (constraint.type === 'start_date' && at >= new Date(constraint.start_date)) return prices;
    if (constraint.type === 'time_of_date') {
      const start = minutesOfDay(constraint.start_time);
      const end = minutesOfDay(constraint.end_time);
      if (end < start ? seconds >= start || seconds < end : seconds >= start && seconds < end) return prices;
    }
  }
  return info.prices[0]!.prices;
}

interface Found {
  info: ModelInfo;
  provider: string;
}

/** Matching a name against a provider's models costs ~0.3 ms: each (provider, model) is matched once. */
const matches = new Map<string, Found | null>();
const maxMatches = 20_000;

function findModel(providerId: string, model: string): Found | null {
  const key = `${providerId}\u0000${model}`;
  const known = matches.get(key);
  if (known !== undefined) return known;
  let found: Found | null = null;
  try {
    const result = calcPrice({}, model, { providerId });
    if (result) found = { info: result.model, provider: result.provider.id };
  } catch {
    found = null;
  }
  if (matches.size >= maxMatches) matches.clear();
  matches.set(key, found);
  return found;
}

const converted = new WeakMap<ModelPrice, ListPrice | null>();

function genaiPrice(providerId: string, model: string, at: Date): CataloguePrice | null {
  const found = findModel(providerId, model);
  if (!found) return null;
  const price = priceAt(found.info, at);
  if (!converted.has(price)) converted.set(price, fromGenaiPrice(price));
  const list = converted.get(price);
  return list ? { list, reference: `${packageVersion}: ${found.provider}/${found.info.id}` } : null;
}

/** The supplement by provider key, then lower-case model name. */
const supplement = new Map<string, Map<string, CataloguePrice>>();
for (const { provider, model, price } of readModelsDev(supplementFile).prices) {
  const entry = (supplementFile as Record<string, { models: Record<string, { source?: string; checked?: string }> }>)[
    provider
  ]?.models[model];
  const byModel = supplement.get(provider) ?? new Map<string, CataloguePrice>();
  byModel.set(model.toLowerCase(), { list: price, reference: `${entry?.source ?? ''} (${entry?.checked ?? ''})` });
  supplement.set(provider, byModel);
}

const fromProvider = (providerId: string, model: string, at: Date): CataloguePrice | null =>
  supplement.get(providerId)?.get(model.toLowerCase()) ?? genaiPrice(providerId, model, at);

const vendors = new Map<string, string | null>();

/** The vendor a model name belongs to, for channels that relay any vendor's models (matched once). */
function vendorOf(model: string): string | null {
  let vendor = vendors.get(model);
  if (vendor !== undefined) return vendor;
  try {
    vendor = findProvider({ modelId: model.toLowerCase() })?.id ?? null;
  } catch {
    vendor = null;
  }
  if (vendors.size >= maxMatches) vendors.clear();
  vendors.set(model, vendor);
  return vendor;
}

/** The list price of a model served by a channel type, at a time (prices with peak hours change by time). */
export function cataloguePrice(model: string, channelType: number, at: Date): CataloguePrice | null {
  for (const providerId of providersOf(channelType)) {
    const price = fromProvider(providerId, model, at);
    if (price) return price;
  }
  if (!pricedByModelName(channelType)) return null;
  const vendor = vendorOf(model);
  return vendor ? fromProvider(vendor, model, at) : null;
}
