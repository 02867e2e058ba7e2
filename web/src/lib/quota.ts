/** Quota units per US dollar (spec section 9). */
export const QUOTA_PER_DOLLAR = 500_000;

export interface QuotaDisplayOptions {
  /** Server option DisplayInCurrencyEnabled. */
  displayInCurrency: boolean;
  /** Server option QuotaPerUnit; non-positive values fall back to 500 000. */
  quotaPerUnit: number;
}

/**
 * Renders a quota amount as the console shows it: in dollars with 2 decimals when currency display is on,
 * otherwise abbreviated with 1 decimal (k from 1e4, M from 1e6, B from 1e9).
 */
export function renderQuota(quota: number, options: QuotaDisplayOptions): string {
  if (options.displayInCurrency) {
    const perUnit = options.quotaPerUnit > 0 ? options.quotaPerUnit : QUOTA_PER_DOLLAR;
    return '$' + (quota / perUnit).toFixed(2);
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
