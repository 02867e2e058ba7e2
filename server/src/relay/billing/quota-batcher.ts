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

/**
 * BATCH_UPDATE_ENABLED mode: settlements accumulate in memory per user, token and channel and are written
 * every BATCH_UPDATE_INTERVAL seconds and at shutdown, as one `col = col + n` per row. Reservations stay
 * immediate and conditional, so batching never lets a balance be overspent.
 */
export class QuotaBatcher {
  private users = new Map<number, UserTotals>();
  private tokens = new Map<number, TokenTotals>();
  private channels = new Map<number, number>();

  private userTotals(id: number): UserTotals {
    let totals = this.users.get(id);
    if (!totals) this.users.set(id, (totals = { balance: 0, used: 0, requests: 0 }));
    return totals;
  }

  private tokenTotals(id: number): TokenTotals {
    let totals = this.tokens.get(id);
    if (!totals) this.tokens.set(id, (totals = { balance: 0, used: 0 }));
    return totals;
  }

  private addChannelUse(id: number, used: number): void {
    this.channels.set(id, (this.channels.get(id) ?? 0) + used);
  }

  add(change: QuotaChange): void {
    const user = this.userTotals(change.userId);
    user.balance += change.balanceDelta;
    user.used += change.usedQuota;
    user.requests += change.requestCount;
    const token = this.tokenTotals(change.tokenId);
    if (change.limited) token.balance += change.balanceDelta;
    token.used += change.tokenUsedDelta;
    if (change.channelId > 0 && change.usedQuota !== 0) this.addChannelUse(change.channelId, change.usedQuota);
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
      const kept = this.userTotals(id);
      kept.balance += totals.balance;
      kept.used += totals.used;
      kept.requests += totals.requests;
    }
    for (const [id, totals] of tokens) {
      const kept = this.tokenTotals(id);
      kept.balance += totals.balance;
      kept.used += totals.used;
    }
    for (const [id, used] of channels) this.addChannelUse(id, used);
  }
}

/** Rows in ascending id order, so that concurrent writers never deadlock. */
export const sortedById = <T>(map: Map<number, T>) => [...map].sort(([a], [b]) => a - b);

/** `column - balance`: a charge never takes a balance below zero, a refund (negative) adds back. */
const changedBy = (column: 'quota' | 'remain_quota', balance: number) =>
  balance > 0
    ? sql<number>`case when ${sql.ref(column)} >= ${balance} then ${sql.ref(column)} - ${balance} else 0 end`
    : sql<number>`${sql.ref(column)} + ${-balance}`;
