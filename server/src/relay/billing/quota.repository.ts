import { sql } from 'kysely';
import type { Db } from '../../db/tables.js';
import { nowSeconds } from '../../lib/time.js';

/** Which balance refused a reservation. */
export type ReserveRefusal = 'token' | 'user' | null;

/** One call's hold on the balances, as written to the `reservations` table. */
export interface ReservationRecord {
  id: string;
  nodeId: string;
  userId: number;
  tokenId: number;
  limited: boolean;
  amount: number;
  requestId: string;
}

/**
 * Reserves `amount` from a limited token and from the user, atomically, and records the reservation in the
 * same transaction: each UPDATE only applies when enough remains, so concurrent requests never reserve
 * more than a balance holds (one-api read then wrote), and a node that dies leaves a row the sweeper finds.
 * Unlimited tokens are not touched.
 */
export async function reserveQuota(db: Db, record: ReservationRecord): Promise<ReserveRefusal> {
  const { amount } = record;
  if (amount <= 0) return null;
  return db
    .transaction()
    .execute(async (transaction) => {
      if (record.limited) {
        const token = await transaction
          .updateTable('tokens')
          .set({
            remain_quota: sql<number>`remain_quota - ${amount}`,
            used_quota: sql<number>`used_quota + ${amount}`,
            accessed_time: nowSeconds(),
          })
          .where('id', '=', record.tokenId)
          .where('remain_quota', '>=', amount)
          .executeTakeFirst();
        if (Number(token.numUpdatedRows) === 0) return 'token' as const;
      }
      const user = await transaction
        .updateTable('users')
        .set({ quota: sql<number>`quota - ${amount}` })
        .where('id', '=', record.userId)
        .where('quota', '>=', amount)
        .executeTakeFirst();
      if (Number(user.numUpdatedRows) === 0) throw new ReservationRefused('user');
      await transaction
        .insertInto('reservations')
        .values({
          id: record.id,
          node_id: record.nodeId,
          user_id: record.userId,
          token_id: record.tokenId,
          limited: Number(record.limited),
          amount,
          request_id: record.requestId.slice(0, 64),
          created_at: nowSeconds(),
        })
        .execute();
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
  /** The token's key, to refresh this node's cached token row after the write. */
  tokenKey: string;
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
  /**
   * The reservation this change closes (its row is deleted in the same write). When the sweeper already
   * gave it back, the write charges the reserved amount again, so a call is never paid for twice nor free.
   */
  reservation: { id: string; amount: number } | null;
}
