import { sql } from 'kysely';
import type { Db } from '../../db/tables.js';
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
/** A reservation closed by a settlement or a refund: its row goes in the same write as the balances. */
export interface ClosedReservation {
  id: string;
  userId: number;
  tokenId: number;
  limited: boolean;
  amount: number;
}
/** Accumulated changes per row: balance change and used counters (channels: used only). */
export interface BalanceTotals {
  users: Map<number, UserTotals>;
  tokens: Map<number, TokenTotals>;
  channels: Map<number, number>;
  closed: ClosedReservation[];
  /** token id → key, to find a token's cached row after the write. */
  tokenKeys: Map<number, string>;
}

/** The balances as the database holds them right after a write, to refresh this node's caches. */
export interface WrittenBalances {
  users: Map<number, { quota: number; used_quota: number; request_count: number }>;
  tokens: Map<number, { remain_quota: number; used_quota: number }>;
}

/**
 * Changes accumulated per user, token and channel, written as one `col = col + n` per row: the settlement
 * writer's group (a few milliseconds) or, with BATCH_UPDATE_ENABLED, BATCH_UPDATE_INTERVAL seconds.
 * Reservations stay immediate and conditional, so batching never admits a call the balance cannot hold.
 */
export class QuotaBatcher {
  private users = new Map<number, UserTotals>();
  private tokens = new Map<number, TokenTotals>();
  private channels = new Map<number, number>();
  private closed: ClosedReservation[] = [];
  private tokenKeys = new Map<number, string>();

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
    this.tokenKeys.set(change.tokenId, change.tokenKey);
    if (change.channelId > 0 && change.usedQuota !== 0) this.addChannelUse(change.channelId, change.usedQuota);
    if (change.reservation)
      this.closed.push({
        id: change.reservation.id,
        amount: change.reservation.amount,
        userId: change.userId,
        tokenId: change.tokenId,
        limited: change.limited,
      });
  }

  get pending(): number {
    return this.users.size + this.tokens.size + this.channels.size + this.closed.length;
  }

  /** What is accumulated and not yet written for one user's balance (to correct a balance read meanwhile). */
  pendingUserBalance(id: number): number {
    return this.users.get(id)?.balance ?? 0;
  }

  pendingTokenBalance(id: number): TokenTotals | undefined {
    return this.tokens.get(id);
  }

  /** Everything accumulated so far, leaving the batcher empty (for a writer that writes it elsewhere). */
  take(): BalanceTotals {
    const { users, tokens, channels, closed, tokenKeys } = this;
    this.users = new Map();
    this.tokens = new Map();
    this.channels = new Map();
    this.closed = [];
    this.tokenKeys = new Map();
    return { users, tokens, channels, closed, tokenKeys };
  }

  /** Puts totals that failed to write back in front of whatever arrived meanwhile. */
  restore({ users, tokens, channels, closed, tokenKeys }: BalanceTotals): void {
    for (const [id, key] of tokenKeys) this.tokenKeys.set(id, key);
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
    this.closed = [...closed, ...this.closed];
  }
}

/** Rows in ascending id order, so that concurrent writers never deadlock. */
export const sortedById = <T>(map: Map<number, T>) => [...map].sort(([a], [b]) => a - b);

/**
 * The totals to write once the closed reservations are known: a reservation the sweeper already gave back
 * (its row was gone) is charged again, because the refund undid the hold and the whole price must now come
 * from the balance. Returns copies, so a write that fails and is retried does not charge it twice.
 */
export function withSweptReservations(
  totals: BalanceTotals,
  swept: readonly ClosedReservation[],
): Pick<BalanceTotals, 'users' | 'tokens'> {
  if (swept.length === 0) return totals;
  const users = new Map([...totals.users].map(([id, user]) => [id, { ...user }]));
  const tokens = new Map([...totals.tokens].map(([id, token]) => [id, { ...token }]));
  for (const reservation of swept) {
    let user = users.get(reservation.userId);
    if (!user) users.set(reservation.userId, (user = { balance: 0, used: 0, requests: 0 }));
    user.balance += reservation.amount;
    if (!reservation.limited) continue;
    let token = tokens.get(reservation.tokenId);
    if (!token) tokens.set(reservation.tokenId, (token = { balance: 0, used: 0 }));
    token.balance += reservation.amount;
    token.used += reservation.amount;
  }
  return { users, tokens };
}

/**
 * The balance write inside an open transaction (PostgreSQL and MySQL; SQLite has its own synchronous copy in
 * sqlite-settlement.ts): closes the reservations, then applies every delta in full. A charge may take a
 * balance below zero: that is the user's debt, never written off (decision 0014). Returns the new balances.
 */
export async function writeTotals(transaction: Db, totals: BalanceTotals): Promise<WrittenBalances> {
  const swept: ClosedReservation[] = [];
  for (const reservation of totals.closed) {
    const deleted = await transaction.deleteFrom('reservations').where('id', '=', reservation.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) swept.push(reservation);
  }
  const { users, tokens } = withSweptReservations(totals, swept);
  const { channels } = totals;
  for (const [id, { balance, used }] of sortedById(tokens)) {
    if (balance === 0 && used === 0) continue;
    await transaction
      .updateTable('tokens')
      .set({ remain_quota: sql`remain_quota - ${balance}`, used_quota: sql`used_quota + ${used}` })
      .where('id', '=', id)
      .execute();
  }
  for (const [id, { balance, used, requests }] of sortedById(users)) {
    await transaction
      .updateTable('users')
      .set({
        quota: sql`quota - ${balance}`,
        used_quota: sql`used_quota + ${used}`,
        request_count: sql`request_count + ${requests}`,
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
  const written: WrittenBalances = { users: new Map(), tokens: new Map() };
  if (users.size > 0) {
    const rows = await transaction
      .selectFrom('users')
      .select(['id', 'quota', 'used_quota', 'request_count'])
      .where('id', 'in', [...users.keys()])
      .execute();
    for (const { id, ...balances } of rows) written.users.set(Number(id), balances);
  }
  if (tokens.size > 0) {
    const rows = await transaction
      .selectFrom('tokens')
      .select(['id', 'remain_quota', 'used_quota'])
      .where('id', 'in', [...tokens.keys()])
      .execute();
    for (const { id, ...balances } of rows) written.tokens.set(Number(id), balances);
  }
  return written;
}
