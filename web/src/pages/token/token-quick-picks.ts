import { QUOTA_PER_DOLLAR } from '../../lib/quota';

/** Expiry that never comes. */
export const NEVER_EXPIRES = -1;

/** Expiry quick picks of the token form: seconds from now, or never. */
export const EXPIRY_PICKS = [
  { key: 'never', seconds: null },
  { key: 'month', seconds: 2_592_000 },
  { key: 'day', seconds: 86_400 },
  { key: 'hour', seconds: 3_600 },
  { key: 'minute', seconds: 60 },
] as const;

export type ExpiryPick = (typeof EXPIRY_PICKS)[number]['key'];

/** The expired_time a quick pick sets, relative to `nowSeconds`. */
export function expiryFromPick(pick: ExpiryPick, nowSeconds: number): number {
  const seconds = EXPIRY_PICKS.find((entry) => entry.key === pick)?.seconds ?? null;
  return seconds === null ? NEVER_EXPIRES : nowSeconds + seconds;
}

/** Quota quick picks in dollars; null is unlimited. */
export const QUOTA_PICKS_DOLLARS = [null, 5, 20, 50, 100, 200, 500] as const;

/** Dollars to quota units (500 000 per dollar), rounded to an integer. */
export const dollarsToQuota = (dollars: number): number => Math.round(dollars * QUOTA_PER_DOLLAR);

/** Quota units to dollars. */
export const quotaToDollars = (quota: number): number => quota / QUOTA_PER_DOLLAR;

/** Remaining quota below this shows red in the token list. */
export const LOW_QUOTA_THRESHOLD = 5_000_000;
