import { useCallback } from 'react';
import { QUOTA_PER_DOLLAR, renderQuota } from '../lib/quota';
import { useStatus } from '../stores/status.store';

/** Formats quota with the currency settings of the last status load. */
export function useRenderQuota(): (quota: number) => string {
  const status = useStatus();
  const displayInCurrency = status.display_in_currency ?? localStorage.getItem('display_in_currency') === 'true';
  const quotaPerUnit = status.quota_per_unit || QUOTA_PER_DOLLAR;
  return useCallback(
    (quota: number) => renderQuota(quota, { displayInCurrency, quotaPerUnit }),
    [displayInCurrency, quotaPerUnit],
  );
}
