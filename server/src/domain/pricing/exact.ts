/**
 * Exact decimals for prices: 3,000 tokens at US$1.10 per 1M are 0.0033 × 500,000 = 1,650 quota, while binary
 * floating point makes that 1650.0000000000002 and rounding up would charge 1,651. Each price, ratio and
 * QuotaPerUnit is read as the decimal it is written as (its shortest round-trip form): `units / 10^scale`.
 */
export interface Decimal {
  units: bigint;
  scale: number;
  /** `units` as a number when a double holds it exactly (a safe integer), else NaN. */
  safeUnits: number;
}

/** 10^0 … 10^15, each exact as a double (10^15 is the last power of ten below 2^53). */
export const safePowers = Array.from({ length: 16 }, (_, exponent) => 10 ** exponent);

/**
 * A product of non-negative safe integers, exact, or NaN when it passes 2^53 or is negative (the caller then
 * counts in BigInt): a double rounds an exact product above 2^53 to a value above it, so the test is exact.
 * NaN carries through products and sums.
 */
export const times = (a: number, b: number): number => {
  const product = a * b;
  return product >= 0 && product <= Number.MAX_SAFE_INTEGER ? product : Number.NaN;
};

/** The smallest whole number at or above numerator / denominator, both safe non-negative integers. */
export const safeCeiling = (numerator: number, denominator: number): number => {
  const remainder = numerator % denominator;
  return (numerator - remainder) / denominator + (remainder > 0 ? 1 : 0);
};

const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);
const powers: bigint[] = [1n];
export const tenTo = (exponent: number): bigint => {
  while (powers.length <= exponent) powers.push(powers[powers.length - 1]! * 10n);
  return powers[exponent]!;
};

/** Prices and ratios repeat from call to call: each number is parsed once. */
const parsed = new Map<number, Decimal>();

export function decimal(value: number): Decimal {
  const known = parsed.get(value);
  if (known) return known;
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const [mantissa = '0', exponentText] = String(value).toLowerCase().split('e');
  const [whole = '0', decimals = ''] = mantissa.split('.');
  let units = BigInt(`${whole}${decimals}`);
  let scale = decimals.length - Number(exponentText ?? 0);
  if (scale < 0) {
    units *= tenTo(-scale);
    scale = 0;
  }
  const result = { units, scale, safeUnits: units <= maxSafe ? Number(units) : Number.NaN };
  if (parsed.size >= 10_000) parsed.clear();
  parsed.set(value, result);
  return result;
}

/** The units of `value` at a larger scale. */
export const atScale = (value: Decimal, scale: number): bigint => value.units * tenTo(scale - value.scale);

/** The smallest whole number at or above numerator / denominator (both non-negative). */
export const ceilingOf = (numerator: bigint, denominator: bigint): number =>
  Number((numerator + denominator - 1n) / denominator);
