/**
 * Exact decimals for prices: 3,000 tokens at US$1.10 per 1M are 0.0033 × 500,000 = 1,650 quota, while binary
 * floating point makes that 1650.0000000000002 and rounding up would charge 1,651. Each price, ratio and
 * QuotaPerUnit is read as the decimal it is written as (its shortest round-trip form): `units / 10^scale`.
 */
export interface Decimal {
  units: bigint;
  scale: number;
}

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
  const result = { units, scale };
  if (parsed.size >= 10_000) parsed.clear();
  parsed.set(value, result);
  return result;
}

/** The units of `value` at a larger scale. */
export const atScale = (value: Decimal, scale: number): bigint => value.units * tenTo(scale - value.scale);

/** The smallest whole number at or above numerator / denominator (both non-negative). */
export const ceilingOf = (numerator: bigint, denominator: bigint): number =>
  Number((numerator + denominator - 1n) / denominator);
