import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import type { QuotaChange } from './quota.repository.js';

export interface UserTotals {
  balance: number;
  used: number;
  requests: number;
}
export interface TokenTotals {
  balance: number;
  used: number;
}
/** Accumulated changes per row: balance change and used counters (channels: used only). */
export interface BalanceTotals {
  users: Map<number, UserTotals>;
  tokens: Map<number, TokenTotals>;
  channels: Map<number, number>;
}

const add = <T extends object>(map: Map<number, T>, id: number, empty: () => T, apply: (totals: T) => void) => {
  let totals = map.get(id);
  if (!totals) {
    totals = empty();
    map.set(id, totals);
  }
  apply(totals);
};

/**
 * BATCH_UPDATE_ENABLED mode: settlements accumulate in memory per user, token and channel and are written
 * every BATCH_UPDATE_INTERVAL seconds and at shutdown, as one `col = col + n` per row. Reservations stay
 * immediate and conditional, so batching never lets a balance be overspent.
 */
export class QuotaBatcher {
  private users = new Map<number, UserTotals>();
  private tokens = new Map<number, TokenTotals>();
  private channels = new Map<number, number>();

  add(change: QuotaChange): void {
    add(
      this.users,
      change.userId,
      () => ({ balance: 0, used: 0, requests: 0 }),
      (totals) => {
        totals.balance += change.balanceDelta;
        totals.used += change.usedQuota;
        totals.requests += change.requestCount;
      },
    );
    add(
      this.tokens,
      change.tokenId,
      () => ({ balance: 0, used: 0 }),
      (totals) => {
        if (change.limited) totals.balance += change.balanceDelta;
        totals.used += change.tokenUsedDelta;
      },
    );
    if (change.channelId > 0 && change.usedQuota !== 0) {
      this.channels.set(change.channelId, (this.channels.get(change.channelId) ?? 0) + change.usedQuota);
    }
  }

  get pending(): number {
    return this.users.size + this.tokens.size + this.channels.size;
  }

  /**
   * Writes everything accumulated so far in one transaction (tokens, users, channels, each by ascending id so
   * that concurrent writers never deadlock). On failure nothing is written and everything is kept.
   */
  async flush(db: Kysely<Database>): Promise<void> {
    const taken = this.take();
    const { users, tokens, channels } = taken;
    try {
      await db.transaction().execute(async (transaction) => {
        for (const [id, totals] of sortedById(tokens)) {
          if (totals.balance === 0 && totals.used === 0) continue;
          await transaction
            .updateTable('tokens')
            .set({
              remain_quota: changedBy('remain_quota', totals.balance),
              used_quota: sql`used_quota + ${totals.used}`,
            })
            .where('id', '=', id)
            .execute();
        }
        for (const [id, totals] of sortedById(users)) {
          await transaction
            .updateTable('users')
            .set({
              quota: changedBy('quota', totals.balance),
              used_quota: sql`used_quota + ${totals.used}`,
              request_count: sql`request_count + ${totals.requests}`,
            })
            .where('id', '=', id)
            .execute();
        }
        for (const [id, used] of sortedById(channels)) {
          await transaction
            .updateTable('channels')
            .set({ used_quota: sql`used_quota + ${used}` })
            .where('id', '=', id)
            .execute();
        }
      });
    } catch (error) {
      this.restore(taken);
      throw error;
    }
  }

  /** Everything accumulated so far, leaving the batcher empty (for a writer that writes it elsewhere). */
  take(): BalanceTotals {
    const totals = { users: this.users, tokens: this.tokens, channels: this.channels };
    this.users = new Map();
    this.tokens = new Map();
    this.channels = new Map();
    return totals;
  }

  /** Puts totals that failed to write back in front of whatever arrived meanwhile. */
  restore({ users, tokens, channels }: BalanceTotals): void {
    for (const [id, totals] of users) {
      add(
        this.users,
        id,
        () => ({ balance: 0, used: 0, requests: 0 }),
        (kept) => {
          kept.balance += totals.balance;
          kept.used += totals.used;
          kept.requests += totals.requests;
        },
      );
    }
    for (const [id, totals] of tokens) {
      add(
        this.tokens,
        id,
        () => ({ balance: 0, used: 0 }),
        (kept) => {
          kept.balance += totals.balance;
          kept.used += totals.used;
        },
      );
    }
    for (const [id, used] of channels) this.channels.set(id, (this.channels.get(id) ?? 0) + used);
  }
}

/** Rows in ascending id order, so that concurrent writers never deadlock. */
export const sortedById = <T>(map: Map<number, T>) => [...map].sort(([a], [b]) => a - b);

/** `column - balance`: a charge never takes a balance below zero, a refund (negative) adds back. */
const changedBy = (column: 'quota' | 'remain_quota', balance: number) =>
  balance > 0
    ? sql<number>`case when ${sql.ref(column)} >= ${balance} then ${sql.ref(column)} - ${balance} else 0 end`
    : sql<number>`${sql.ref(column)} + ${-balance}`;
