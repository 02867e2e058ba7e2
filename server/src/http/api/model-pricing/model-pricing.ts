import type { ListPrice, ModelPricing, PricingList, TokenPrices } from '@modelgate/wire';
import type { AppContext } from '../../../context.js';
import type { ResolvedPrice } from '../../../domain/pricing/price.js';
import { isPriceMissing, resolvePrice } from '../../../domain/pricing/resolve-price.js';
import { groupRatio } from '../../../domain/pricing/ratios.js';
import type { RoutedChannel } from '../../../relay/routing/channel-router.js';
import { relayRuntime } from '../../../relay/runtime.js';

type TokenClass = keyof TokenPrices;

/** Products of prices and ratios without float noise (0.15 × 1.1 reads 0.165, not 0.16500000000000004). */
const clean = (value: number) => Number(value.toPrecision(12));

/**
 * The channels of the group serving the model, in the order the relay tries them: highest priority first,
 * then (the relay draws by weight within a priority) the heaviest, then the oldest.
 */
function channelsServing(context: AppContext, group: string, model: string): RoutedChannel[] {
  const found = relayRuntime(context).router.serving(group, model);
  return found.sort((a, b) => b.priority - a.priority || b.weight - a.weight || a.row.id - b.row.id);
}

/** The price of one model on one channel, or null when nothing prices it there (the relay passes it over). */
function resolveOn(context: AppContext, group: string, model: string, channel: RoutedChannel): ResolvedPrice | null {
  try {
    return resolvePrice(context, channel.mapping[model] ?? model, channel.row.type, group);
  } catch (error) {
    if (isPriceMissing(error)) return null;
    throw error;
  }
}

/** A list price with every amount (tiers' too, not their thresholds) multiplied by the group ratio. */
function scaleList(list: ListPrice, ratio: number): ListPrice {
  const scaled: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(list)) if (typeof value === 'number') scaled[key] = clean(value * ratio);
  if (list.tiers) scaled.tiers = list.tiers.map(({ above, ...prices }) => ({ above, ...scaleList(prices, ratio) }));
  return scaled as ListPrice;
}

const tokenClasses = (price: ListPrice) =>
  (Object.keys(price) as (keyof ListPrice)[]).filter(
    (key): key is TokenClass => key !== 'tiers' && !key.startsWith('per_'),
  );

/** Quota per `tokens` tokens of each class of a price in US$ per 1M tokens. */
function quotasOf(price: ListPrice, quotaPerUnit: number, tokens: number): Partial<Record<TokenClass, number>> {
  return Object.fromEntries(
    tokenClasses(price).map((key) => [key, clean(((price[key] ?? 0) * quotaPerUnit * tokens) / 1_000_000)]),
  );
}

/** What a resolved price costs the caller: in dollars and in quota, group ratio applied, as priceCall charges. */
function present(
  model: string,
  channel: RoutedChannel,
  resolved: ResolvedPrice,
  ratioOfGroup: number,
  quotaPerUnit: number,
): Omit<ModelPricing, 'varies'> {
  const applied = resolved.groupPrice ? 1 : ratioOfGroup;
  const base = { model, source: resolved.source, channel_type: channel.row.type, group_ratio: applied };
  const { price } = resolved;
  if (price.kind === 'list') {
    const scaled = scaleList(price.list, applied);
    return {
      ...base,
      price: scaled,
      ratio: null,
      quota_per_1k: quotasOf(scaled, quotaPerUnit, 1_000),
      quota_per_1m: quotasOf(scaled, quotaPerUnit, 1_000_000),
    };
  }
  // one-api's ratio: quota per token = model ratio × group ratio, output tokens × completion ratio.
  const { model_ratio, completion_ratio, web_searches_per_1000 } = price.ratio;
  const perToken = { input: model_ratio * applied, output: model_ratio * completion_ratio * applied };
  const per = (tokens: number) => ({ input: clean(perToken.input * tokens), output: clean(perToken.output * tokens) });
  const dollars: ListPrice = {
    input: clean((perToken.input * 1_000_000) / quotaPerUnit),
    output: clean((perToken.output * 1_000_000) / quotaPerUnit),
  };
  if (web_searches_per_1000 > 0) dollars.per_web_search = clean((web_searches_per_1000 / 1000) * applied);
  return {
    ...base,
    price: dollars,
    ratio: { model_ratio, completion_ratio },
    quota_per_1k: per(1_000),
    quota_per_1m: per(1_000_000),
  };
}

const signature = (pricing: Omit<ModelPricing, 'varies'>) => JSON.stringify([pricing.price, pricing.group_ratio]);

/**
 * The models a user of `group` can call, each with the price the relay charges them for it (decision 0026):
 * resolved on the first channel, in the relay's order, that prices the model under the name the channel maps
 * it to (the relay passes over a channel that cannot), with the group ratio applied. A model no channel
 * prices is listed as `missing`, not left out; one the group's channels price differently is marked.
 */
export function modelPricingOf(context: AppContext, group: string): PricingList {
  const ratioOfGroup = groupRatio(context, group);
  const quotaPerUnit = context.options.number('QuotaPerUnit');
  const models = relayRuntime(context)
    .router.modelsOfGroup(group)
    .flatMap((model): ModelPricing[] => {
      const channels = channelsServing(context, group, model);
      const priced = channels.flatMap((channel) => {
        const resolved = resolveOn(context, group, model, channel);
        return resolved ? [present(model, channel, resolved, ratioOfGroup, quotaPerUnit)] : [];
      });
      const [first] = priced;
      if (first) return [{ ...first, varies: new Set(priced.map(signature)).size > 1 }];
      return channels[0] ? [missing(model, channels[0].row.type, ratioOfGroup)] : [];
    });
  return { group, group_ratio: ratioOfGroup, quota_per_unit: quotaPerUnit, models };
}

const missing = (model: string, channelType: number, ratio: number): ModelPricing => ({
  model,
  source: 'missing',
  channel_type: channelType,
  group_ratio: ratio,
  price: null,
  ratio: null,
  quota_per_1k: {},
  quota_per_1m: {},
  varies: false,
});
