import type { QuotaChange } from '../src/relay/billing/quota.repository.js';

/** A settled call's balance change, as the relay submits it: `quota` off the user and (when limited) the token. */
export const testCharge = (userId: number, tokenId: number, quota: number): QuotaChange => ({
  userId,
  tokenId,
  tokenKey: '',
  reservation: null,
  limited: true,
  channelId: 0,
  balanceDelta: quota,
  usedQuota: quota,
  tokenUsedDelta: quota,
  requestCount: 1,
});
