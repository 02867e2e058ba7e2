/** Price units of the model catalogue toggle. */
export type PriceUnit = '1K' | '1M';

/** A US$ amount as written, without float noise or an exponent: 0.165, 3.75, 0.0000001, 100000. */
export function formatUsd(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 10, useGrouping: false });
}

/**
 * A price per 1M tokens in the catalogue's unit (per 1K divides by 1000), with the spec's 4 decimals; a price
 * that 4 decimals would show as 0.0000 keeps 2 significant digits instead (US$0.02 per 1M is 0.00002 per 1K).
 */
export function priceInUnit(pricePerMillion: number, unit: PriceUnit): string {
  const value = unit === '1K' ? pricePerMillion / 1000 : pricePerMillion;
  if (value === 0 || Math.abs(value) >= 0.00005) return value.toFixed(4);
  return formatUsd(Number(value.toPrecision(2)));
}

/** A token count as vendors write thresholds: 200000 → '200K', 1000000 → '1M'; another count as it is. */
export const tokensShort = (tokens: number): string =>
  tokens >= 1_000_000 && tokens % 100_000 === 0
    ? `${tokens / 1_000_000}M`
    : tokens >= 1000 && tokens % 100 === 0
      ? `${tokens / 1000}K`
      : String(tokens);
