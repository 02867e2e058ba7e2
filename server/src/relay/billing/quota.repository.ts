import { sql } from 'kysely';
import type { Db } from '../../db/tables.js';
import { nowSeconds } from '../../lib/time.js';

/** Which balance refused a reservation. */
export type ReserveRefusal = 'token' | 'user' | null;

/**
 * Reserves `amount` from a limited token and from the user, atomically: each UPDATE only applies when
 * enough remains, inside one transaction, so concurrent requests can never overspend (one-api read then
 * wrote). Unlimited tokens are not touched.
 */
export async function reserveQuota(
  db: Db,
  userId: number,
  tokenId: number,
  limited: boolean,
  amount: number,
): Promise<ReserveRefusal> {
  if (amount <= 0) return null;
  return db
    .transaction()
    .execute(async (transaction) => {
      if (limited) {
        const token = await transaction
          .updateTable('tokens')
          .set({
            remain_quota: sql<number>`remain_quota - ${amount}`,
            used_quota: sql<number>`used_quota + ${amount}`,
            accessed_time: nowSeconds(),
          })
          .where('id', '=', tokenId)
          .where('remain_quota', '>=', amount)
          .executeTakeFirst();
        if (Number(token.numUpdatedRows) === 0) return 'token' as const;
      }
      const user = await transaction
        .updateTable('users')
        .set({ quota: sql<number>`quota - ${amount}` })
        .where('id', '=', userId)
        .where('quota', '>=', amount)
        .executeTakeFirst();
      if (Number(user.numUpdatedRows) === 0) throw new ReservationRefused('user');
      return null;
    })
    .catch((error: unknown) => {
      if (error instanceof ReservationRefused) return error.refusal;
      throw error;
    });
}

/** Rolls the token's reservation back when the user's balance refuses (thrown inside the transaction). */
class ReservationRefused extends Error {
  constructor(readonly refusal: Exclude<ReserveRefusal, null>) {
    super(`reservation refused by ${refusal}`);
  }
}

/** The balance changes of one settled (or refunded) request. Positive = charge, negative = give back. */
export interface QuotaChange {
  userId: number;
  tokenId: number;
  limited: boolean;
  channelId: number;
  /** Change of the user's quota and a limited token's remaining quota (final − reserved). */
  balanceDelta: number;
  /** Added to used_quota of user, channel, and the token (limited: delta, as its reservation counted already). */
  usedQuota: number;
  /** What the token's used_quota grows by. */
  tokenUsedDelta: number;
  /** 1 for a billed request, 0 for a pure refund. */
  requestCount: number;
}
