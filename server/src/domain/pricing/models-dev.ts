import { listPrice, type ListPrice, type PriceTier } from '@modelgate/wire';

/** One model's price read from a models.dev file, under the provider key it was listed by. */
export interface ImportedPrice {
  provider: string;
  model: string;
  price: ListPrice;
}

export interface SkippedModel {
  provider: string;
  model: string;
  reason: string;
}

/** models.dev's cost fields (US$ per 1M tokens) and this price model's names for them. */
const costFields = {
  input: 'input',
  output: 'output',
  cache_read: 'cache_read',
  cache_write: 'cache_write',
  input_audio: 'input_audio',
  output_audio: 'output_audio',
} as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Rates = Partial<Record<(typeof costFields)[keyof typeof costFields], number>>;

function readRates(cost: Record<string, unknown>): Rates | string {
  const rates: Rates = {};
  for (const [field, name] of Object.entries(costFields)) {
    const value = cost[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number') return `${field} is not a number`;
    rates[name] = value;
  }
  return rates;
}

/** The context tiers: `tiers` entries of type context, and the older `context_over_200k` (above 200,000). */
function readTiers(cost: Record<string, unknown>): PriceTier[] | string {
  const tiers = new Map<number, PriceTier>();
  if (isRecord(cost.context_over_200k)) {
    const rates = readRates(cost.context_over_200k);
    if (typeof rates === 'string') return `context_over_200k: ${rates}`;
    tiers.set(200_000, { above: 200_000, ...rates });
  }
  if (cost.tiers !== undefined) {
    if (!Array.isArray(cost.tiers)) return 'tiers is not a list';
    for (const entry of cost.tiers) {
      if (!isRecord(entry) || !isRecord(entry.tier) || entry.tier.type !== 'context')
        return 'a tier is not a context tier';
      const size = entry.tier.size;
      if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) return 'a tier has no size';
      const rates = readRates(entry);
      if (typeof rates === 'string') return `tier ${size}: ${rates}`;
      tiers.set(size, { above: size, ...rates });
    }
  }
  return [...tiers.values()].sort((a, b) => a.above - b.above);
}

const knownCostKeys = new Set([...Object.keys(costFields), 'reasoning', 'context_over_200k', 'tiers']);

/** A models.dev cost as a price, or why it cannot be held (a structure this price model lacks). */
export function priceFromCost(cost: unknown): ListPrice | string {
  if (!isRecord(cost)) return 'no cost';
  const unknown = Object.keys(cost).filter((key) => !knownCostKeys.has(key));
  // The names are the file's: a few, each cut short, so that a hostile file is not echoed back.
  if (unknown.length > 0)
    return `unknown cost fields: ${unknown
      .slice(0, 3)
      .map((key) => (key.length > 32 ? `${key.slice(0, 32)}…` : key))
      .join(', ')}${unknown.length > 3 ? ` and ${unknown.length - 3} more` : ''}`;
  const rates = readRates(cost);
  if (typeof rates === 'string') return rates;
  if (rates.input === undefined && rates.output === undefined) return 'no input or output price';
  // Reasoning tokens are billed as output here; a distinct reasoning price cannot be honoured.
  if (cost.reasoning !== undefined && cost.reasoning !== null && cost.reasoning !== rates.output)
    return 'reasoning is priced apart from output';
  const tiers = readTiers(cost);
  if (typeof tiers === 'string') return tiers;
  const parsed = listPrice.safeParse(tiers.length > 0 ? { ...rates, tiers } : rates);
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? 'invalid price');
}

/**
 * Reads a models.dev file (`{ <provider>: { models: { <id>: { cost } } } }`), for the chosen providers or
 * all of them. Nothing is fetched: the file arrives in a request or from a path the root user names.
 */
export function readModelsDev(
  data: unknown,
  providers?: readonly string[],
): { prices: ImportedPrice[]; skipped: SkippedModel[] } {
  const prices: ImportedPrice[] = [];
  const skipped: SkippedModel[] = [];
  if (!isRecord(data)) return { prices, skipped };
  const wanted = providers ? new Set(providers) : null;
  for (const [provider, entry] of Object.entries(data)) {
    if (wanted && !wanted.has(provider)) continue;
    if (!isRecord(entry) || !isRecord(entry.models)) continue;
    for (const [key, model] of Object.entries(entry.models)) {
      if (!isRecord(model)) continue;
      const id = typeof model.id === 'string' && model.id ? model.id : key;
      const price = priceFromCost(model.cost);
      if (typeof price === 'string') skipped.push({ provider, model: id, reason: price });
      else prices.push({ provider, model: id, price });
    }
  }
  return { prices, skipped };
}
