/**
 * Exact fractions for prices: 1,000 tokens at US$2.5 per million are 0.0025 × 500,000 = 1,250 quota, while
 * binary floating point makes that 1250.0000000000002 and rounding up would charge 1,251. Each decimal a
 * price, a ratio or QuotaPerUnit is written with is read as the exact value the admin meant.
 */
export interface Fraction {
  numerator: bigint;
  denominator: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

const reduced = (numerator: bigint, denominator: bigint): Fraction => {
  const divisor = gcd(numerator, denominator) || 1n;
  return { numerator: numerator / divisor, denominator: denominator / divisor };
};

export const zero: Fraction = { numerator: 0n, denominator: 1n };

/** The decimal a finite number prints as (its shortest round-trip form), as an exact fraction. */
export function exact(value: number): Fraction {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const [mantissa = '0', exponentText] = String(value).toLowerCase().split('e');
  const exponent = Number(exponentText ?? 0);
  const [whole = '0', decimals = ''] = mantissa.split('.');
  const digits = BigInt(`${whole}${decimals}`);
  const scale = decimals.length - exponent;
  return scale >= 0
    ? reduced(digits, 10n ** BigInt(scale))
    : { numerator: digits * 10n ** BigInt(-scale), denominator: 1n };
}

export const times = (...factors: Fraction[]): Fraction =>
  factors.reduce(
    (product, factor) => reduced(product.numerator * factor.numerator, product.denominator * factor.denominator),
    { numerator: 1n, denominator: 1n },
  );

export const plus = (a: Fraction, b: Fraction): Fraction =>
  reduced(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);

export const over = (a: Fraction, divisor: bigint): Fraction => reduced(a.numerator, a.denominator * divisor);

/** The smallest whole number at or above a non-negative fraction. */
export const ceiling = (value: Fraction): number =>
  Number((value.numerator + value.denominator - 1n) / value.denominator);

export const floor = (value: Fraction): number => Number(value.numerator / value.denominator);

/** The part below one: compared as fractions, never as rounded numbers. */
export const remainder = (value: Fraction): Fraction => reduced(value.numerator % value.denominator, value.denominator);

export const compare = (a: Fraction, b: Fraction): number => {
  const difference = a.numerator * b.denominator - b.numerator * a.denominator;
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
};

export const isZero = (value: Fraction) => value.numerator === 0n;

/** A fraction as a number, for display only. */
export const approximate = (value: Fraction) => Number(value.numerator) / Number(value.denominator);
