import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { TokenRow } from '../../db/tables.js';
import { invalidateToken } from './token.cache.js';
import { NeverExpires, TokenStatus } from './token.constants.js';

/**
 * Saves status 3 (expired) on a token the relay refused for its expiry, as one-api does, so the console
 * lists it as expired. Written only while the stored row still says so: an expiry the owner has just
 * extended is not overwritten. Every node then drops its cached copy.
 */
export async function markTokenExpired(context: AppContext, token: Pick<TokenRow, 'id' | 'key'>, now: number) {
  const result = await context.database.db
    .updateTable('tokens')
    .set({ status: TokenStatus.Expired })
    .where('id', '=', token.id)
    .where('status', '=', TokenStatus.Enabled)
    .where('expired_time', '!=', NeverExpires)
    .where('expired_time', '<', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) await invalidateToken(context, token);
}

/**
 * Saves status 4 (exhausted) on a limited token the relay refused for its quota, as one-api does. Not while
 * a call of the token holds quota (its reservation row is open): the hold may come back, and a status 4
 * would then keep refusing a token that has quota again.
 */
export async function markTokenExhausted(context: AppContext, token: Pick<TokenRow, 'id' | 'key'>) {
  const result = await context.database.db
    .updateTable('tokens')
    .set({ status: TokenStatus.Exhausted })
    .where('id', '=', token.id)
    .where('status', '=', TokenStatus.Enabled)
    .where('remain_quota', '<=', 0)
    .where(sql<boolean>`not ${sql.ref('unlimited_quota')}`)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('reservations').select('id').where('reservations.token_id', '=', token.id))),
    )
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) await invalidateToken(context, token);
}
