import type { AppContext } from '../../context.js';
import type { TokenRow } from '../../db/tables.js';
import { findTokenByKey } from './token.repository.js';

/** The longest relay key that can exist (without `sk-` and the `-<channelId>` suffix). */
export const longestTokenKey = 48;

/**
 * The token row for a relay key (without `sk-`), from the in-process cache; null when no token has that key.
 * Every management write calls `invalidateToken`, so a disabled or deleted key stops working on the next
 * request on every node (one-api's Redis copy stayed valid for up to SYNC_FREQUENCY seconds).
 */
export const getCachedTokenByKey = (context: AppContext, key: string): Promise<TokenRow | null> =>
  // tokens.key is char(48): a longer key cannot exist, so it costs neither a query nor a cache entry.
  key.length > longestTokenKey
    ? Promise.resolve(null)
    : context.caches.tokens.getOrLoad(key, async () => (await findTokenByKey(context.database.db, key)) ?? null);

/** Call after any write to a token row: every node drops its cached copy of that key. */
export async function invalidateToken(context: AppContext, token: Pick<TokenRow, 'key'>): Promise<void> {
  await context.bus.publish('token', token.key);
}
