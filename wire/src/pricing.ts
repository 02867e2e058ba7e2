import { z } from 'zod';
import type { Operation } from './operation.js';

/** A price: a finite, non-negative number of US dollars. */
const usd = z.number().finite().nonnegative();

/** Modest bounds: a price far above any vendor's is a typo (a per-token price entered per million, say). */
const perMillion = usd.max(100_000);
const perUnit = usd.max(10_000);

/**
 * The token classes a call may use, in US$ per 1M tokens. A class without a price is charged as its parent:
 * cache reads and writes as input, the 1-hour write as the 5-minute one, audio and image tokens as text.
 */
export const tokenPrices = z.object({
  input: perMillion.optional(),
  output: perMillion.optional(),
  cache_read: perMillion.optional(),
  /** A 5-minute cache write (Anthropic's default), or the vendor's only cache-write price. */
  cache_write: perMillion.optional(),
  cache_write_1h: perMillion.optional(),
  input_audio: perMillion.optional(),
  output_audio: perMillion.optional(),
  input_image: perMillion.optional(),
  output_image: perMillion.optional(),
});

/** From this prompt size up (strictly above `above` prompt tokens), the whole request is priced by the tier. */
export const priceTier = tokenPrices.extend({ above: z.number().int().positive() });

/** One model's price: token classes, per-call and per-unit prices, and context tiers. */
export const listPrice = tokenPrices
  .extend({
    per_call: perUnit.optional(),
    per_image: perUnit.optional(),
    per_audio_second: perUnit.optional(),
    per_web_search: perUnit.optional(),
    tiers: z.array(priceTier).max(8).optional(),
  })
  .strict()
  .refine(
    (price) => new Set(price.tiers?.map((tier) => tier.above)).size === (price.tiers?.length ?? 0),
    'tiers must have distinct thresholds',
  );

const modelName = z.string().trim().min(1).max(191);
/** '' prices the model for every group; a group's own price replaces it (and its ratio) for that group. */
const groupName = z.string().trim().max(64).default('');

export const setPriceBody = z.object({
  model: modelName,
  group: groupName,
  price: listPrice,
  note: z.string().max(255).default(''),
});

export const deletePriceQuery = z.object({ model: modelName, group: groupName });

export const priceListQuery = z.object({ model: z.string().max(191).optional() });

export const priceSource = z.enum(['admin', 'ratio', 'catalogue', 'default', 'missing']);

/** One model's effective price as the relay would charge it (for one channel type, or any when null). */
export const effectivePrice = z.object({
  model: z.string(),
  channel_type: z.number().nullable(),
  group: z.string(),
  source: priceSource,
  price: listPrice.nullable(),
  /** one-api's ratios when the source is `ratio` (quota per token = model ratio × group ratio). */
  ratio: z.object({ model_ratio: z.number(), completion_ratio: z.number() }).nullable(),
  /** Where a catalogue price comes from: the price database and its provider, or the supplement's page. */
  reference: z.string(),
  note: z.string(),
});

/**
 * A models.dev file (https://models.dev/api.json): sent in the body, or read by root from a path on the
 * server. `providers` chooses which of its providers to take (all when absent); `models` limits the apply.
 */
export const priceImportBody = z
  .object({
    data: z.record(z.string(), z.unknown()).optional(),
    path: z.string().min(1).max(1024).optional(),
    providers: z.array(z.string().min(1).max(64)).max(100).optional(),
    models: z.array(modelName).max(10_000).optional(),
  })
  .refine((body) => (body.data === undefined) !== (body.path === undefined), 'send either data or path');

/**
 * One price class an import moves: `above` null for the base prices, else the context tier's threshold. `kept`:
 * absent from the file, the price in force stays; `dropped`: the price in force has it, the import will not.
 */
export const priceClassChange = z.object({
  class: z.string(),
  above: z.number().nullable(),
  before: z.number().nullable(),
  after: z.number().nullable(),
  change: z.enum(['changed', 'added', 'kept', 'dropped']),
});

export const priceChange = z.object({
  model: z.string(),
  provider: z.string(),
  /** Whether a channel serves the model: the console pre-selects only these. */
  served: z.boolean(),
  before: listPrice.nullable(),
  before_source: priceSource,
  /** The price in force with the file's classes laid over it, class by class (a class absent stays). */
  after: listPrice,
  classes: z.array(priceClassChange),
});

export const priceImportPreview = z.object({
  changes: z.array(priceChange),
  unchanged: z.number(),
  /** Models two chosen providers price differently, with each side's price: left out until one is chosen. */
  conflicts: z.array(
    z.object({ model: z.string(), prices: z.array(z.object({ provider: z.string(), price: listPrice })) }),
  ),
  /** Models whose cost the file gives in a shape this price model cannot hold, and why. */
  skipped: z.array(z.object({ model: z.string(), provider: z.string(), reason: z.string() })),
  applied: z.number(),
});

/**
 * How a receipt line's unit price reads: US$ per 1M tokens, per unit or per 1,000, or (a ratio price) quota per
 * token or per image (one-api's model ratio × size factor × 1000), before the group ratio.
 */
export type ReceiptUnit = 'usd_per_mtok' | 'usd_per_unit' | 'quota_per_token' | 'quota_per_unit' | 'usd_per_1000';

/**
 * One line of a call's receipt: a token class or a unit, its count, its unit price and the quota it cost. The
 * item stays a string: a console older than the server shows an item it does not know by its name.
 */
export interface ReceiptLine {
  item: string;
  count: number;
  unit_price: number;
  unit: ReceiptUnit;
  quota: number;
  /** Set when the gateway estimated the count (a transcript's seconds), not reported by the vendor or measured. */
  estimated?: true;
}

/**
 * What a call was charged, line by line, as a consume log's `other` stores it (`{"receipt": …}`): the lines add
 * up to `quota`, the charge. The settlement (the hold, then what came back or was charged on top) is there when
 * the call held quota first. Types only, no schema: the server writes it on every call without checking it, and
 * the console's log page reads it without loading zod (web/src/lib/receipt.ts).
 */
export interface StoredReceipt {
  model: string;
  /** A price source other than `missing`; a string, as the item, for a source an older console does not know. */
  source: string;
  reference: string;
  /** The group ratio applied to every line; 1 when the group has a price of its own. */
  group_ratio: number;
  group_price: boolean;
  /** The threshold of the context tier that priced the call, or null for the base prices. */
  tier: number | null;
  prompt_tokens: number;
  quota_per_unit: number;
  lines: ReceiptLine[];
  quota: number;
  /** The settlement's fields: absent from a receipt that was not settled against a hold. */
  reserved?: number;
  refunded?: number;
  charged_on_top?: number;
  /**
   * Set when the balance could not pay the call's worst case: the upstream was asked for at most `output_cap`
   * output tokens, what the balance left could pay (decision 0014).
   */
  capped_by_balance?: true;
  output_cap?: number;
}

export type ListPrice = z.infer<typeof listPrice>;
export type TokenPrices = z.infer<typeof tokenPrices>;
export type PriceTier = z.infer<typeof priceTier>;
export type PriceSource = z.infer<typeof priceSource>;
export type EffectivePrice = z.infer<typeof effectivePrice>;
export type PriceImportPreview = z.infer<typeof priceImportPreview>;

/** The price routes (admin; reading a file on the server is root's). */
export const pricingOperations: Operation[] = [
  {
    method: 'GET',
    path: '/api/price/',
    summary: 'Effective prices of the served, priced and ratio-priced models, with their source',
    access: 'admin',
    query: priceListQuery,
    answer: z.array(effectivePrice),
  },
  {
    method: 'PUT',
    path: '/api/price/',
    summary: "Set a model's price (for every group, or one group)",
    access: 'admin',
    body: setPriceBody,
  },
  {
    method: 'DELETE',
    path: '/api/price/',
    summary: "Delete a model's price set by an admin",
    access: 'admin',
    query: deletePriceQuery,
  },
  {
    method: 'POST',
    path: '/api/price/import/preview',
    summary: 'What a models.dev price file would change',
    access: 'admin',
    body: priceImportBody,
    answer: priceImportPreview,
  },
  {
    method: 'POST',
    path: '/api/price/import',
    summary: "Apply a models.dev price file's changes as admin prices",
    access: 'admin',
    body: priceImportBody,
    answer: priceImportPreview,
  },
];
