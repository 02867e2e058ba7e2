import type { TokenDetails, TokenInput } from '../../api/token';
import { formatTimestamp } from '../../lib/time';
import { dollarsToQuota, NEVER_EXPIRES, quotaToDollars } from './token-quick-picks';

/** The token form: quota in dollars, expiry as 'YYYY-MM-DD HH:mm:ss' text ('' = never). */
export interface TokenFormValues {
  name: string;
  models: string[];
  remain_dollars: number | null;
  unlimited_quota: boolean;
  expiry: string;
  subnet: string;
  /** Limits (0 or empty = none) and the budget in quota units for its period ('' = no budget). */
  rpm_limit: number | null;
  tpm_limit: number | null;
  concurrency_limit: number | null;
  budget_quota: number | null;
  budget_period: '' | 'day' | 'week' | 'month';
}

/** New tokens default to unlimited quota and no expiry. */
export const emptyTokenForm: TokenFormValues = {
  name: '',
  models: [],
  remain_dollars: 0,
  unlimited_quota: true,
  expiry: '',
  subnet: '',
  rpm_limit: 0,
  tpm_limit: 0,
  concurrency_limit: 0,
  budget_quota: 0,
  budget_period: '',
};

export function tokenToForm(token: TokenDetails): TokenFormValues {
  return {
    name: token.name,
    models: (token.models ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    remain_dollars: quotaToDollars(token.remain_quota),
    unlimited_quota: Boolean(token.unlimited_quota),
    expiry: token.expired_time === NEVER_EXPIRES ? '' : (formatTimestamp(token.expired_time) ?? ''),
    subnet: token.subnet ?? '',
    rpm_limit: token.rpm_limit,
    tpm_limit: token.tpm_limit,
    concurrency_limit: token.concurrency_limit,
    budget_quota: token.budget_quota,
    budget_period: token.budget_period as TokenFormValues['budget_period'],
  };
}

/** Expiry text to seconds: '' is never; text that is not a date gives null (the 'expiry format error'). */
export function parseExpiry(text: string): number | null {
  const trimmed = text.trim();
  if (!trimmed || trimmed === String(NEVER_EXPIRES)) return NEVER_EXPIRES;
  const milliseconds = Date.parse(trimmed.replace(' ', 'T'));
  return Number.isNaN(milliseconds) ? null : Math.ceil(milliseconds / 1000);
}

export function formToToken(values: TokenFormValues): { ok: true; input: TokenInput } | { ok: false; error: 'expiry' } {
  const expired = parseExpiry(values.expiry);
  if (expired === null) return { ok: false, error: 'expiry' };
  return {
    ok: true,
    input: {
      name: values.name.trim(),
      remain_quota: dollarsToQuota(Number(values.remain_dollars) || 0),
      expired_time: expired,
      unlimited_quota: values.unlimited_quota,
      models: values.models.join(','),
      subnet: values.subnet.trim(),
      rpm_limit: Number(values.rpm_limit) || 0,
      tpm_limit: Number(values.tpm_limit) || 0,
      concurrency_limit: Number(values.concurrency_limit) || 0,
      budget_quota: Number(values.budget_quota) || 0,
      budget_period: values.budget_period,
    },
  };
}
