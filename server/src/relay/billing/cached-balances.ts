import type { AppContext } from '../../context.js';
import type { QuotaBatcher, WrittenBalances } from './quota-batcher.js';

/**
 * Puts the balances a write has just read back from the database into this node's cached user and token
 * rows, less what this node has accumulated and not written yet. Other nodes' charges thus reach this
 * node's view at its next write, which keeps the trusted shortcut (billing.service.ts) bounded by the real
 * balance, not by a row cached for SYNC_FREQUENCY.
 */
export function refreshCachedBalances(
  context: AppContext,
  written: WrittenBalances,
  tokenKeys: ReadonlyMap<number, string>,
  unwritten: readonly (QuotaBatcher | null)[],
): void {
  for (const [id, balances] of written.users) {
    const user = context.caches.users.get(String(id));
    if (!user) continue;
    let pending = 0;
    for (const batcher of unwritten) pending += batcher?.pendingUserBalance(id) ?? 0;
    user.quota = balances.quota - pending;
    user.used_quota = balances.used_quota;
    user.request_count = balances.request_count;
  }
  for (const [id, balances] of written.tokens) {
    const key = tokenKeys.get(id);
    const token = key === undefined ? undefined : context.caches.tokens.get(key);
    if (!token) continue;
    let pendingBalance = 0;
    let pendingUsed = 0;
    for (const batcher of unwritten) {
      const pending = batcher?.pendingTokenBalance(id);
      pendingBalance += pending?.balance ?? 0;
      pendingUsed += pending?.used ?? 0;
    }
    token.remain_quota = balances.remain_quota - pendingBalance;
    token.used_quota = balances.used_quota + pendingUsed;
  }
}
