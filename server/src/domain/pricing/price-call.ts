import type {
  ListPrice,
  PriceSource,
  PriceTier,
  ReceiptLine as StoredReceiptLine,
  StoredReceipt,
  TokenPrices,
} from '@modelgate/wire';
import { atScale, ceilingOf, decimal, tenTo, type Decimal } from './exact.js';
import {
  inputClasses,
  outputClasses,
  promptTokens,
  type CallUsage,
  type RatioPrice,
  type ResolvedPrice,
  type TokenClass,
} from './price.js';

type UnitItem = 'per_call' | 'image' | 'audio_second' | 'web_search';

/** A stored receipt line (wire's shape) whose item is one the server prices. */
export interface ReceiptLine extends StoredReceiptLine {
  item: TokenClass | UnitItem;
}

type Settlement = Pick<StoredReceipt, 'reserved' | 'refunded' | 'charged_on_top'>;
type BalanceCap = Pick<StoredReceipt, 'capped_by_balance' | 'output_cap'>;

/**
 * What a call was charged, line by line (wire's stored shape before settlement): the lines' quotas add up to
 * `quota`, the charge.
 */
export interface Receipt extends Omit<StoredReceipt, keyof Settlement | keyof BalanceCap> {
  source: Exclude<PriceSource, 'missing'>;
  lines: ReceiptLine[];
}

/** A class without a price of its own is charged as its parent (text input or output). */
const parents: Record<TokenClass, TokenClass | null> = {
  input: null,
  output: null,
  cache_read: 'input',
  cache_write: 'input',
  cache_write_1h: 'cache_write',
  input_audio: 'input',
  input_image: 'input',
  output_audio: 'output',
  output_image: 'output',
};

function classPrice(prices: TokenPrices, tokenClass: TokenClass): number {
  const own = prices[tokenClass];
  if (own !== undefined) return own;
  const parent = parents[tokenClass];
  return parent ? classPrice(prices, parent) : 0;
}

/** The tier with the highest threshold the prompt exceeds: it prices the whole request. */
function tierFor(price: ListPrice, prompt: number): PriceTier | null {
  let chosen: PriceTier | null = null;
  for (const tier of price.tiers ?? [])
    if (prompt > tier.above && (!chosen || tier.above > chosen.above)) chosen = tier;
  return chosen;
}

/**
 * Shares a rounded total among lines by largest remainder: each line gets its exact value rounded down
 * (`floors`), and the units left go to the lines with the largest fractions (`byFraction`, largest first), so
 * the lines add up to the total exactly.
 */
function allocate(lines: ReceiptLine[], total: number, floors: number[], byFraction: number[]): void {
  lines.forEach((line, index) => (line.quota = floors[index]!));
  let left = total - floors.reduce((sum, quota) => sum + quota, 0);
  for (let at = 0; left > 0 && byFraction.length > 0; at = (at + 1) % byFraction.length, left--)
    lines[byFraction[at]!]!.quota += 1;
  for (const index of [...byFraction].reverse()) {
    if (left >= 0) break;
    const taken = Math.min(lines[index]!.quota, -left);
    lines[index]!.quota -= taken;
    left += taken;
  }
}

const indices = (length: number) => Array.from({ length }, (_, index) => index);

function tokenCounts(usage: CallUsage): [TokenClass, number][] {
  return [...inputClasses, ...outputClasses]
    .map((tokenClass): [TokenClass, number] => [tokenClass, usage[tokenClass] ?? 0])
    .filter(([, count]) => count > 0);
}

/**
 * Token lines of a list price: Σ count × US$/1M × QuotaPerUnit × group ratio, rounded up once, in exact
 * integers: every price is brought to the largest scale among them, over one common denominator.
 */
function listTokenLines(usage: CallUsage, prices: TokenPrices, scale: Decimal): ReceiptLine[] {
  const counts = tokenCounts(usage);
  const unitPrices = counts.map(([tokenClass]) => classPrice(prices, tokenClass));
  const decimals = unitPrices.map(decimal);
  const priceScale = Math.max(0, ...decimals.map((price) => price.scale));
  const denominator = tenTo(priceScale + scale.scale + 6);
  const numerators = counts.map(
    ([, count], index) => BigInt(count) * atScale(decimals[index]!, priceScale) * scale.units,
  );
  const sum = numerators.reduce((total, numerator) => total + numerator, 0n);
  const lines = counts.map(([tokenClass, count], index): ReceiptLine => {
    return { item: tokenClass, count, unit_price: unitPrices[index]!, unit: 'usd_per_mtok', quota: 0 };
  });
  const remainders = numerators.map((numerator) => numerator % denominator);
  const byFraction = indices(lines.length).sort((a, b) =>
    remainders[b]! > remainders[a]! ? 1 : remainders[b]! < remainders[a]! ? -1 : a - b,
  );
  const floors = numerators.map((numerator) => Number(numerator / denominator));
  allocate(lines, ceilingOf(sum, denominator), floors, byFraction);
  return lines;
}

/**
 * Token lines of a ratio price: one-api's ceil((prompt + completion × completion ratio) × model ratio ×
 * group ratio) in its own floating-point order, at least 1 when the ratio is not 0; 0 with no tokens.
 */
function ratioTokenLines(usage: CallUsage, ratio: RatioPrice, groupRatio: number): ReceiptLine[] {
  const combined = ratio.model_ratio * groupRatio;
  const counts = tokenCounts(usage);
  const output = (tokenClass: TokenClass) => (outputClasses as readonly string[]).includes(tokenClass);
  const prompt = counts.filter(([tokenClass]) => !output(tokenClass)).reduce((sum, [, count]) => sum + count, 0);
  const completion = counts.filter(([tokenClass]) => output(tokenClass)).reduce((sum, [, count]) => sum + count, 0);
  let total = 0;
  if (prompt + completion > 0) {
    total = Math.ceil((prompt + completion * ratio.completion_ratio) * combined);
    if (combined !== 0 && total <= 0) total = 1;
  }
  const values = counts.map(([tokenClass, count]) =>
    Math.max(0, (output(tokenClass) ? count * ratio.completion_ratio : count) * combined),
  );
  const lines = counts.map(([tokenClass, count]): ReceiptLine => {
    const perToken = output(tokenClass) ? ratio.model_ratio * ratio.completion_ratio : ratio.model_ratio;
    return { item: tokenClass, count, unit_price: perToken, unit: 'quota_per_token', quota: 0 };
  });
  const fractions = values.map((value) => value - Math.floor(value));
  const byFraction = indices(lines.length).sort((a, b) => fractions[b]! - fractions[a]! || a - b);
  allocate(lines, total, values.map(Math.floor), byFraction);
  return lines;
}

/** Per-call and per-unit lines of a list price, each rounded up on its own. */
function listUnitLines(usage: CallUsage, price: ListPrice, scale: Decimal): ReceiptLine[] {
  const units: [UnitItem, number, number | undefined][] = [
    ['per_call', usage.calls ?? 1, price.per_call],
    ['image', usage.images ?? 0, price.per_image],
    ['audio_second', usage.audio_seconds ?? 0, price.per_audio_second],
    ['web_search', usage.web_searches ?? 0, price.per_web_search],
  ];
  return units
    .filter(([, count, unitPrice]) => count > 0 && unitPrice !== undefined && unitPrice > 0)
    .map(([item, count, unitPrice]) => ({
      item,
      count,
      unit_price: unitPrice!,
      unit: 'usd_per_unit',
      quota: ceilingOf(
        decimal(count).units * decimal(unitPrice!).units * scale.units,
        tenTo(decimal(count).scale + decimal(unitPrice!).scale + scale.scale),
      ),
    }));
}

/**
 * Prices one call. Rounding: the token lines together are rounded up once (one-api's rule: a ratio price
 * charges exactly its formula), each per-call or per-unit line on its own (as ModelGate's web-search
 * charge always was); the token total is shared among the token lines by largest remainder, so the
 * receipt's lines always add up to the charge.
 */
export function priceCall(
  usage: CallUsage,
  resolved: ResolvedPrice,
  groupRatio: number,
  quotaPerUnit: number,
): { quota: number; receipt: Receipt } {
  const appliedRatio = resolved.groupPrice ? 1 : groupRatio;
  const prompt = promptTokens(usage);
  let tier: number | null = null;
  let lines: ReceiptLine[];
  const { price } = resolved;
  if (price.kind === 'ratio') {
    lines = ratioTokenLines(usage, price.ratio, appliedRatio);
    const searches = usage.web_searches ?? 0;
    if (searches > 0 && price.ratio.web_searches_per_1000 > 0)
      lines.push({
        item: 'web_search',
        count: searches,
        unit_price: price.ratio.web_searches_per_1000,
        unit: 'usd_per_1000',
        // ModelGate's web-search charge as it was: floating point, in this order.
        quota: Math.ceil(((searches * price.ratio.web_searches_per_1000) / 1000) * quotaPerUnit * appliedRatio),
      });
  } else {
    const chosen = tierFor(price.list, prompt);
    tier = chosen?.above ?? null;
    const { above: _above, ...tierPrices } = chosen ?? { above: 0 };
    const prices: TokenPrices = { ...price.list, ...tierPrices };
    const perUnit = decimal(quotaPerUnit);
    const ratio = decimal(appliedRatio);
    const scale = { units: perUnit.units * ratio.units, scale: perUnit.scale + ratio.scale };
    lines = [...listTokenLines(usage, prices, scale), ...listUnitLines(usage, price.list, scale)];
  }
  const quota = lines.reduce((sum, line) => sum + line.quota, 0);
  return {
    quota,
    receipt: {
      model: resolved.model,
      source: resolved.source,
      reference: resolved.reference,
      group_ratio: appliedRatio,
      group_price: resolved.groupPrice,
      tier,
      prompt_tokens: prompt,
      quota_per_unit: quotaPerUnit,
      lines,
      quota,
    },
  };
}

/**
 * A receipt with what the balance saw: the hold, and what settlement gave back or charged on top. Built from
 * wire's fields, so what the log stores is a valid StoredReceipt by the compiler's check.
 */
export type SettledReceipt = Receipt & Required<Settlement> & BalanceCap;

/**
 * The receipt settled against its hold, and the output cap when the balance set one. Every field named (the
 * type insists on each): it is built and serialised on every call the relay settles, and a spread copy took
 * three times as long to build and serialise.
 */
export function settleReceipt(receipt: Receipt, reserved: number, outputCap?: number): SettledReceipt {
  const settled: SettledReceipt = {
    model: receipt.model,
    source: receipt.source,
    reference: receipt.reference,
    group_ratio: receipt.group_ratio,
    group_price: receipt.group_price,
    tier: receipt.tier,
    prompt_tokens: receipt.prompt_tokens,
    quota_per_unit: receipt.quota_per_unit,
    lines: receipt.lines,
    quota: receipt.quota,
    reserved,
    refunded: Math.max(0, reserved - receipt.quota),
    charged_on_top: Math.max(0, receipt.quota - reserved),
  };
  if (outputCap !== undefined) {
    settled.capped_by_balance = true;
    settled.output_cap = outputCap;
  }
  return settled;
}
