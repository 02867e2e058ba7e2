import { sql } from 'kysely';
import type { Db } from '../../db/tables.js';
import type { QuotaChange } from './quota.repository.js';

interface UserTotals {
  balance: number;
  used: number;
  requests: number;
}
interface TokenTotals {
  balance: number;
  used: number;
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

  /** Writes everything accumulated so far; what fails to write is kept for the next flush. */
  async flush(db: Db): Promise<void> {
    const users = this.users;
    const tokens = this.tokens;
    const channels = this.channels;
    this.users = new Map();
    this.tokens = new Map();
    this.channels = new Map();
    let failure: unknown;
    for (const [id, totals] of tokens) {
      try {
        if (totals.balance === 0 && totals.used === 0) continue;
        await db
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota - ${totals.balance}`, used_quota: sql`used_quota + ${totals.used}` })
          .where('id', '=', id)
          .execute();
      } catch (error) {
        add(
          this.tokens,
          id,
          () => ({ balance: 0, used: 0 }),
          (kept) => {
            kept.balance += totals.balance;
            kept.used += totals.used;
          },
        );
        failure ??= error;
      }
    }
    for (const [id, totals] of users) {
      try {
        await db
          .updateTable('users')
          .set({
            quota: sql`quota - ${totals.balance}`,
            used_quota: sql`used_quota + ${totals.used}`,
            request_count: sql`request_count + ${totals.requests}`,
          })
          .where('id', '=', id)
          .execute();
      } catch (error) {
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
        failure ??= error;
      }
    }
    for (const [id, used] of channels) {
      try {
        await db
          .updateTable('channels')
          .set({ used_quota: sql`used_quota + ${used}` })
          .where('id', '=', id)
          .execute();
      } catch (error) {
        this.channels.set(id, (this.channels.get(id) ?? 0) + used);
        failure ??= error;
      }
    }
    if (failure) throw failure;
  }
}
