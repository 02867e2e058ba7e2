import { z } from 'zod';
import type { Operation } from './operation.js';
import { listPrice, priceSource, tokenPrices } from './pricing.js';

/** An amount of quota for each token class the price names (input, output, cache_read, …). */
const tokenQuotas = z.partialRecord(tokenPrices.keyof(), z.number());

/** One model the caller can call, with the price the relay charges them for it. */
export const modelPricing = z.object({
  model: z.string(),
  /** Where the price comes from; `missing`: nothing prices the model, and a call of it is refused. */
  source: priceSource,
  /**
   * The channel type the price is for: that of the first channel, in the relay's order, that prices the model
   * (the relay passes over a channel that cannot); for an unpriced model, the first channel's.
   */
  channel_type: z.number(),
  /** The group ratio applied to this model: the group's, or 1 when the admin priced the model for the group. */
  group_ratio: z.number(),
  /**
   * The price in the caller's group, group ratio applied: US$ per 1M tokens, per call and per unit, with its
   * context tiers. A ratio price appears here converted to dollars too. Null when the model has no price.
   */
  price: listPrice.nullable(),
  /** one-api's ratios of a ratio price, before the group ratio; null for a price in dollars. */
  ratio: z.object({ model_ratio: z.number(), completion_ratio: z.number() }).nullable(),
  /** Quota charged per 1K and per 1M tokens of each class, group ratio applied (the base prices, no tier). */
  quota_per_1k: tokenQuotas,
  quota_per_1m: tokenQuotas,
  /** Another channel of the group that prices the model charges otherwise (a call retried there, say). */
  varies: z.boolean(),
});

/** GET /api/pricing: the models of the caller's group (the default group for visitors) and their prices. */
export const pricingList = z.object({
  group: z.string(),
  group_ratio: z.number(),
  quota_per_unit: z.number(),
  models: z.array(modelPricing),
});

export type ModelPricing = z.infer<typeof modelPricing>;
export type PricingList = z.infer<typeof pricingList>;

export const modelPricingOperations: Operation[] = [
  {
    method: 'GET',
    path: '/api/pricing',
    summary: "Each model the caller's group can call (the default group's when signed out) and what it costs them",
    access: 'public',
    answer: pricingList,
  },
];
