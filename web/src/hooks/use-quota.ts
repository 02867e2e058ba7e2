import { useCallback } from 'react';
import { QUOTA_PER_DOLLAR, renderQuota, type QuotaDisplayOptions } from '../lib/quota';
import { useStatus } from '../stores/status.store';

/** The currency settings of the last status load. */
export function useQuotaDisplay(): QuotaDisplayOptions {
  const status = useStatus();
  return {
    displayInCurrency: status.display_in_currency ?? localStorage.getItem('display_in_currency') === 'true',
    quotaPerUnit: status.quota_per_unit || QUOTA_PER_DOLLAR,
  };
}

/** Formats quota with the currency settings of the last status load. */
export function useRenderQuota(): (quota: number) => string {
  const { displayInCurrency, quotaPerUnit } = useQuotaDisplay();
  return useCallback(
    (quota: number) => renderQuota(quota, { displayInCurrency, quotaPerUnit }),
    [displayInCurrency, quotaPerUnit],
  );
}
