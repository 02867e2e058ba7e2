import type {
  ListPrice,
  PriceSource,
  PriceTier,
  ReceiptLine as StoredReceiptLine,
  StoredReceipt,
  TokenPrices,
} from '@modelgate/wire';
import { atScale, ceilingOf, decimal, safeCeiling, safePowers, tenTo, times, type Decimal } from './exact.js';
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

/** Every token class, in the receipt's order. */
const tokenClasses: readonly TokenClass[] = [...inputClasses, ...outputClasses];
const isOutput = (tokenClass: TokenClass) => parents[tokenClass] === 'output' || tokenClass === 'output';

/** A class's price: the tier's, else the list's, else its parent's. */
function classPrice(list: TokenPrices, tier: PriceTier | null, tokenClass: TokenClass): number {
  const own = tier?.[tokenClass] ?? list[tokenClass];
  if (own !== undefined) return own;
  const parent = parents[tokenClass];
  return parent ? classPrice(list, tier, parent) : 0;
}

/** The tier with the highest threshold the prompt exceeds: it prices the whole request. */
function tierFor(price: ListPrice, prompt: number): PriceTier | null {
  let chosen: PriceTier | null = null;
  for (const tier of price.tiers ?? [])
    if (prompt > tier.above && (!chosen || tier.above > chosen.above)) chosen = tier;
  return chosen;
}

/** A token count the pricing uses: the classes with tokens, a count of 0 (or none, or nonsense) left out. */
const used = (count: number | undefined): count is number => count !== undefined && count > 0;

/**
 * Each line's fraction of a unit below its rounded-down quota, for `shareOut`. Pricing runs to its end
 * without awaiting, so one scratch array serves every call (a receipt has at most one line per token class).
 */
const fractions = new Float64Array(tokenClasses.length);

/**
 * Brings lines rounded down to a rounded total, by largest remainder: the units left go one each to the
 * lines with the largest fractions (the earlier line first on a tie), round after round; when the lines
 * rounded down exceed the total (a ratio price's floating point), the excess is taken back from the lines
 * with the smallest fractions first. The lines then add up to the total exactly.
 */
function shareOut(lines: ReceiptLine[], left: number): void {
  const count = lines.length;
  if (count === 0 || left === 0) return;
  let given = 0;
  if (left > 0) {
    const rounds = Math.floor(left / count);
    if (rounds > 0) for (const line of lines) line.quota += rounds;
    for (let rest = left - rounds * count; rest > 0; rest--) {
      let best = -1;
      for (let index = 0; index < count; index++)
        if (!(given & (1 << index)) && (best < 0 || fractions[index]! > fractions[best]!)) best = index;
      given |= 1 << best;
      lines[best]!.quota += 1;
    }
    return;
  }
  for (let taken = 0; left < 0 && taken < count; taken++) {
    let best = -1;
    for (let index = 0; index < count; index++)
      if (!(given & (1 << index)) && (best < 0 || fractions[index]! <= fractions[best]!)) best = index;
    given |= 1 << best;
    const take = Math.min(lines[best]!.quota, -left);
    lines[best]!.quota -= take;
    left += take;
  }
}

/**
 * A list price's token lines, or their total alone: Σ count × US$/1M × QuotaPerUnit × group ratio, rounded
 * up once, in exact integers: every price is brought to the largest scale among them, over one common
 * denominator. Counted in doubles while every product stays a safe integer (`times`), else in BigInt.
 */
class ListTokens {
  private priceScale = 0;

  constructor(
    private readonly list: TokenPrices,
    private readonly tier: PriceTier | null,
    private readonly scale: Decimal,
  ) {}

  /** The token lines' total (the hold's estimates: no lines built). */
  quota(usage: CallUsage): number {
    this.priceScale = 0;
    for (const tokenClass of tokenClasses)
      if (used(usage[tokenClass])) this.notePrice(classPrice(this.list, this.tier, tokenClass));
    const denominator = this.denominator();
    let sum = 0;
    for (const tokenClass of tokenClasses) {
      const count = usage[tokenClass];
      if (used(count)) sum += this.numerator(count, classPrice(this.list, this.tier, tokenClass));
    }
    if (sum <= Number.MAX_SAFE_INTEGER && denominator > 0) return safeCeiling(sum, denominator);
    return this.exactLines(usage).reduce((total, line) => total + line.quota, 0);
  }

  lines(usage: CallUsage): ReceiptLine[] {
    this.priceScale = 0;
    const lines: ReceiptLine[] = [];
    for (const tokenClass of tokenClasses) {
      const count = usage[tokenClass];
      if (!used(count)) continue;
      const unitPrice = classPrice(this.list, this.tier, tokenClass);
      this.notePrice(unitPrice);
      lines.push({ item: tokenClass, count, unit_price: unitPrice, unit: 'usd_per_mtok', quota: 0 });
    }
    const denominator = this.denominator();
    if (!(denominator > 0)) return this.exactLines(usage);
    let sum = 0;
    let floors = 0;
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      const numerator = this.numerator(line.count, line.unit_price);
      const remainder = numerator % denominator;
      line.quota = (numerator - remainder) / denominator;
      fractions[index] = remainder;
      floors += line.quota;
      sum += numerator;
    }
    if (!(sum <= Number.MAX_SAFE_INTEGER)) return this.exactLines(usage);
    shareOut(lines, safeCeiling(sum, denominator) - floors);
    return lines;
  }

  private notePrice(unitPrice: number): void {
    const { scale } = decimal(unitPrice);
    if (scale > this.priceScale) this.priceScale = scale;
  }

  /** 10^(price scale + scale + 6), or NaN past the last safe power of ten. */
  private denominator(): number {
    return safePowers[this.priceScale + this.scale.scale + 6] ?? Number.NaN;
  }

  /** count × price (at the common scale) × scale, or NaN when it is not a safe integer. */
  private numerator(count: number, unitPrice: number): number {
    const price = decimal(unitPrice);
    const shift = safePowers[this.priceScale - price.scale] ?? Number.NaN;
    const units = times(price.safeUnits, shift);
    return times(times(Number.isInteger(count) ? count : Number.NaN, units), this.scale.safeUnits);
  }

  /** The same lines counted in BigInt: for products past 2^53. */
  private exactLines(usage: CallUsage): ReceiptLine[] {
    const lines: ReceiptLine[] = [];
    const numerators: bigint[] = [];
    for (const tokenClass of tokenClasses) {
      const count = usage[tokenClass];
      if (!used(count)) continue;
      const unitPrice = classPrice(this.list, this.tier, tokenClass);
      lines.push({ item: tokenClass, count, unit_price: unitPrice, unit: 'usd_per_mtok', quota: 0 });
      numerators.push(BigInt(count) * atScale(decimal(unitPrice), this.priceScale) * this.scale.units);
    }
    const denominator = tenTo(this.priceScale + this.scale.scale + 6);
    let floors = 0;
    lines.forEach((line, index) => {
      line.quota = Number(numerators[index]! / denominator);
      floors += line.quota;
    });
    // Ranks stand for the remainders, which doubles may not hold exactly: the largest ranks highest.
    const byRemainder = lines
      .map((_, index) => index)
      .sort((a, b) => {
        const difference = numerators[b]! % denominator > numerators[a]! % denominator;
        return difference ? 1 : numerators[b]! % denominator < numerators[a]! % denominator ? -1 : a - b;
      });
    byRemainder.forEach((index, rank) => (fractions[index] = lines.length - rank));
    const sum = numerators.reduce((total, numerator) => total + numerator, 0n);
    shareOut(lines, ceilingOf(sum, denominator) - floors);
    return lines;
  }
}

/**
 * A ratio price's token total: one-api's ceil((prompt + completion × completion ratio) × model ratio × group
 * ratio) in its own floating-point order, at least 1 when the ratio is not 0; 0 with no tokens.
 */
function ratioTotal(usage: CallUsage, ratio: RatioPrice, combined: number): number {
  let prompt = 0;
  let completion = 0;
  for (const tokenClass of tokenClasses) {
    const count = usage[tokenClass];
    if (!used(count)) continue;
    if (isOutput(tokenClass)) completion += count;
    else prompt += count;
  }
  if (prompt + completion === 0) return 0;
  const total = Math.ceil((prompt + completion * ratio.completion_ratio) * combined);
  return combined !== 0 && total <= 0 ? 1 : total;
}

/** A ratio price's token lines: its total shared among the classes by largest remainder. */
function ratioTokenLines(usage: CallUsage, ratio: RatioPrice, combined: number): ReceiptLine[] {
  const lines: ReceiptLine[] = [];
  let floors = 0;
  for (const tokenClass of tokenClasses) {
    const count = usage[tokenClass];
    if (!used(count)) continue;
    const output = isOutput(tokenClass);
    const value = Math.max(0, (output ? count * ratio.completion_ratio : count) * combined);
    const perToken = output ? ratio.model_ratio * ratio.completion_ratio : ratio.model_ratio;
    const quota = Math.floor(value);
    fractions[lines.length] = value - quota;
    floors += quota;
    lines.push({ item: tokenClass, count, unit_price: perToken, unit: 'quota_per_token', quota });
  }
  shareOut(lines, ratioTotal(usage, ratio, combined) - floors);
  return lines;
}

/** A per-call or per-unit line of a list price: count × US$ × QuotaPerUnit × group ratio, rounded up. */
function unitQuota(count: number, unitPrice: number, scale: Decimal): number {
  const units = decimal(count);
  const price = decimal(unitPrice);
  const exponent = units.scale + price.scale + scale.scale;
  const numerator = times(times(units.safeUnits, price.safeUnits), scale.safeUnits);
  const denominator = safePowers[exponent] ?? Number.NaN;
  if (numerator <= Number.MAX_SAFE_INTEGER && denominator > 0) return safeCeiling(numerator, denominator);
  return ceilingOf(units.units * price.units * scale.units, tenTo(exponent));
}

type UnitPrice = 'per_call' | 'per_image' | 'per_audio_second' | 'per_web_search';

/** The usage each unit price counts, and the receipt's item for it. */
const unitItems: [UnitPrice, UnitItem, (usage: CallUsage) => number][] = [
  ['per_call', 'per_call', (usage) => usage.calls ?? 1],
  ['per_image', 'image', (usage) => usage.images ?? 0],
  ['per_audio_second', 'audio_second', (usage) => usage.audio_seconds ?? 0],
  ['per_web_search', 'web_search', (usage) => usage.web_searches ?? 0],
];

/** A call cut at the balance is refused when what is left pays for fewer output tokens than this. */
export const minimumCutOutput = 64;

/** What an attempt holds before it runs (decision 0014), and how that hold may be cut. */
export interface Hold {
  /** The most the call can cost. */
  amount: number;
  /** For a call that writes output: how its hold may be cut to what the balance has left. */
  cut?: {
    /** The least hold accepted: the prompt and `minimumCutOutput` tokens (priced when a cut needs it). */
    floor(): number;
    /** The output tokens a cut hold pays for beside the prompt: the upstream's cap. */
    outputFor(held: number): number;
  };
}

/**
 * One attempt's price: the resolved price with the caller's group ratio and QuotaPerUnit, made once per
 * attempt. It says what to hold before the call (`hold`, `quota`) and what the call is charged after it
 * (`charge`: the receipt, whose lines add up to its quota); billing only moves that money.
 *
 * Rounding: the token lines together are rounded up once (one-api's rule: a ratio price charges exactly its
 * formula), each per-call or per-unit line on its own (as ModelGate's web-search charge always was); the token
 * total is shared among the token lines by largest remainder, so the receipt's lines add up to the charge.
 * Money is counted in integers (a list price exactly, in doubles while they hold every product, else BigInt).
 */
export class AttemptPrice {
  /** The group ratio on every line: 1 when the group has a price of its own. */
  readonly groupRatio: number;
  /** QuotaPerUnit × group ratio as an exact decimal (list prices). */
  private readonly scale: Decimal | null = null;

  constructor(
    readonly resolved: ResolvedPrice,
    groupRatio: number,
    readonly quotaPerUnit: number,
  ) {
    this.groupRatio = resolved.groupPrice ? 1 : groupRatio;
    if (resolved.price.kind === 'list') {
      const perUnit = decimal(quotaPerUnit);
      const ratio = decimal(this.groupRatio);
      const units = perUnit.units * ratio.units;
      const safeUnits = times(perUnit.safeUnits, ratio.safeUnits);
      this.scale = { units, scale: perUnit.scale + ratio.scale, safeUnits };
    }
  }

  /** What a usage costs, without its receipt (what to hold). */
  quota(usage: CallUsage): number {
    const { price } = this.resolved;
    if (price.kind === 'ratio')
      return ratioTotal(usage, price.ratio, price.ratio.model_ratio * this.groupRatio) + this.ratioSearches(usage);
    const tokens = new ListTokens(price.list, tierFor(price.list, promptTokens(usage)), this.scale!);
    let quota = tokens.quota(usage);
    for (const [field, , countOf] of unitItems) {
      const count = countOf(usage);
      const unitPrice = price.list[field];
      if (count > 0 && unitPrice !== undefined && unitPrice > 0) quota += unitQuota(count, unitPrice, this.scale!);
    }
    return quota;
  }

  /** What a usage is charged, line by line: the receipt, whose quota is the charge. */
  charge(usage: CallUsage): Receipt {
    const { price } = this.resolved;
    const prompt = promptTokens(usage);
    let tier: PriceTier | null = null;
    let lines: ReceiptLine[];
    if (price.kind === 'ratio') {
      lines = ratioTokenLines(usage, price.ratio, price.ratio.model_ratio * this.groupRatio);
      const searches = usage.web_searches ?? 0;
      if (searches > 0 && price.ratio.web_searches_per_1000 > 0)
        lines.push({
          item: 'web_search',
          count: searches,
          unit_price: price.ratio.web_searches_per_1000,
          unit: 'usd_per_1000',
          quota: this.ratioSearches(usage),
        });
    } else {
      tier = tierFor(price.list, prompt);
      lines = new ListTokens(price.list, tier, this.scale!).lines(usage);
      for (const [field, item, countOf] of unitItems) {
        const count = countOf(usage);
        const unitPrice = price.list[field];
        if (count > 0 && unitPrice !== undefined && unitPrice > 0)
          lines.push({
            item,
            count,
            unit_price: unitPrice,
            unit: 'usd_per_unit',
            quota: unitQuota(count, unitPrice, this.scale!),
          });
      }
    }
    let quota = 0;
    for (const line of lines) quota += line.quota;
    return {
      model: this.resolved.model,
      source: this.resolved.source,
      reference: this.resolved.reference,
      group_ratio: this.groupRatio,
      group_price: this.resolved.groupPrice,
      tier: tier?.above ?? null,
      prompt_tokens: prompt,
      quota_per_unit: this.quotaPerUnit,
      lines,
      quota,
    };
  }

  /**
   * What a text call is held for: the price of its prompt (`prompt` tokens, an estimate) and of the most
   * output it can write (`outputCeiling`; null for a call without output), with the web searches it allows.
   * When the balance cannot pay that, reserve() cuts the hold to what is left and the output is capped to
   * what the cut hold pays, so no call can cost more than its hold beyond the prompt estimate's error.
   */
  hold(prompt: number, outputCeiling: number | null, webSearches = 0): Hold {
    const usage: CallUsage = { input: prompt, output: 0 };
    if (webSearches) usage.web_searches = webSearches;
    const quotaOf = (output: number) => {
      usage.output = output;
      return this.quota(usage);
    };
    if (outputCeiling === null) return { amount: quotaOf(0) };
    let floor: number | undefined;
    return {
      amount: quotaOf(outputCeiling),
      cut: {
        floor: () => (floor ??= quotaOf(Math.min(minimumCutOutput, outputCeiling))),
        // The price grows with the output: the largest output whose price the hold covers, found by halving.
        outputFor(held) {
          let low = 0;
          let high = outputCeiling;
          while (low < high) {
            const middle = Math.ceil((low + high) / 2);
            if (quotaOf(middle) <= held) low = middle;
            else high = middle - 1;
          }
          return low;
        },
      },
    };
  }

  /** ModelGate's web-search charge on a ratio price, as it was: floating point, in this order. */
  private ratioSearches(usage: CallUsage): number {
    const searches = usage.web_searches ?? 0;
    const { price } = this.resolved;
    if (price.kind !== 'ratio' || !(searches > 0) || !(price.ratio.web_searches_per_1000 > 0)) return 0;
    return Math.ceil(((searches * price.ratio.web_searches_per_1000) / 1000) * this.quotaPerUnit * this.groupRatio);
  }
}

/** One call's price at once: its charge and receipt (quotes and tests; the relay keeps an AttemptPrice). */
export function priceCall(
  usage: CallUsage,
  resolved: ResolvedPrice,
  groupRatio: number,
  quotaPerUnit: number,
): { quota: number; receipt: Receipt } {
  const receipt = new AttemptPrice(resolved, groupRatio, quotaPerUnit).charge(usage);
  return { quota: receipt.quota, receipt };
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
