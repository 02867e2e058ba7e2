import { listPrice, tokenPrices, type ListPrice, type PriceTier } from '@modelgate/wire';

/** The token classes of a price, in US$ per 1M tokens, in the order the form shows them (the wire schema's). */
export const TOKEN_FIELDS = tokenPrices.keyof().options;
export type TokenField = (typeof TOKEN_FIELDS)[number];

/** Per-call and per-unit prices, in US$. */
export const UNIT_FIELDS = ['per_call', 'per_image', 'per_audio_second', 'per_web_search'] as const;
export type UnitField = (typeof UNIT_FIELDS)[number];

type Amounts<K extends string> = Partial<Record<K, number | null>>;

/** A tier as the form holds it: empty inputs are null. */
export type TierValues = Amounts<TokenField> & { above?: number | null };

/** The price form's values: empty inputs are null (antd's InputNumber), tiers a list. */
export type PriceFormValues = Amounts<TokenField | UnitField> & { tiers?: TierValues[] };

/**
 * A field the price schema refused, by its form path, and why: above its maximum (`limit`), below zero, not a
 * number, a tier's threshold that is missing or not a whole positive number, or two tiers with one threshold.
 */
export interface PriceFieldError {
  name: (string | number)[];
  reason: 'tooBig' | 'negative' | 'notNumber' | 'threshold' | 'duplicateThresholds';
  limit?: number;
}

function reasonOf(issue: { code: string; maximum?: unknown; path: PropertyKey[] }): Omit<PriceFieldError, 'name'> {
  if (issue.code === 'custom') return { reason: 'duplicateThresholds' };
  if (issue.path.at(-1) === 'above') return { reason: 'threshold' };
  if (issue.code === 'too_big') return { reason: 'tooBig', limit: Number(issue.maximum) };
  if (issue.code === 'too_small') return { reason: 'negative' };
  return { reason: 'notNumber' };
}

/** The form's values of a price (empty for a new one). */
export function priceFormValues(price: ListPrice | null | undefined): PriceFormValues {
  return { ...price, tiers: price?.tiers?.map((tier) => ({ ...tier })) ?? [] };
}

const filled = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== undefined)) as Partial<T>;

/**
 * The price of the form's values, checked by the schema the server checks with (wire's listPrice): the price,
 * or each refused field by its form path.
 */
export function priceOfForm(values: PriceFormValues): { price: ListPrice } | { errors: PriceFieldError[] } {
  const { tiers, ...amounts } = values;
  const candidate: Record<string, unknown> = filled(amounts);
  const kept = (tiers ?? []).map((tier) => filled(tier) as Partial<PriceTier>);
  if (kept.length > 0) candidate.tiers = kept;
  const parsed = listPrice.safeParse(candidate);
  if (parsed.success) return { price: parsed.data };
  return {
    errors: parsed.error.issues.map((issue) => ({
      name:
        issue.path.length > 0 ? issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)) : ['tiers'],
      ...reasonOf(issue),
    })),
  };
}
