import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/connect.js';
import { databaseSeconds } from '../../db/database-clock.js';
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
          // The database's clock, which the sweeper reads too (a node's own may have drifted).
          created_at: databaseSeconds(transaction),
        })
        .execute();
      return null;
    })
    .catch((error: unknown) => {
      if (error instanceof ReservationRefused) return error.refusal;
      throw error;
    });
}

/** A user's balance and, for a limited token, the token's, as the database holds them now. */
/** Read-only: on SQLite the calls of one event-loop turn share one object (`readStored`). */
export interface StoredBalances {
  readonly user: number;
  readonly token: number | null;
}

type BalanceReads = {
  user: SQLite.Statement<[number], { quota: number }>;
  both: SQLite.Statement<[number, number], { quota: number; remain_quota: number | null }>;
  dataVersion: SQLite.Statement<[], { data_version: number }>;
  changes: SQLite.Statement<[], { changes: number }>;
  /** What this turn's reads found, while the database cannot have changed (`readStored`). */
  turn: {
    looked: boolean;
    dataVersion: number;
    changes: number;
    rows: Map<string, StoredBalances>;
  };
};
const sqliteReads = new WeakMap<SQLite.Database, BalanceReads>();
/** Balances remembered between two changes at most; more are read again. */
const maxRememberedBalances = 10_000;

function balanceReads(sqlite: SQLite.Database): BalanceReads {
  let reads = sqliteReads.get(sqlite);
  if (!reads) {
    reads = {
      // Rows, not .pluck(): prepared statements are shared per SQL text (connect.ts), and a mode set here
      // would reach every other query of the same text.
      user: sqlite.prepare<[number], { quota: number }>('select "quota" from "users" where "id" = ?'),
      // One statement for both balances: each statement outside a transaction takes and drops SQLite's locks.
      both: sqlite.prepare<[number, number], { quota: number; remain_quota: number | null }>(
        'select "quota", (select "remain_quota" from "tokens" where "id" = ?) as "remain_quota" from "users" where "id" = ?',
      ),
      dataVersion: sqlite.prepare<[], { data_version: number }>('pragma data_version'),
      changes: sqlite.prepare<[], { changes: number }>('select total_changes() as "changes"'),
      turn: { looked: false, dataVersion: -1, changes: -1, rows: new Map() },
    };
    sqliteReads.set(sqlite, reads);
  }
  return reads;
}

function readFromSqlite(reads: BalanceReads, userId: number, tokenId: number | null): StoredBalances {
  if (tokenId === null) return { user: reads.user.get(userId)?.quota ?? 0, token: null };
  const row = reads.both.get(tokenId, userId);
  return { user: row?.quota ?? 0, token: row?.remain_quota ?? 0 };
}

/**
 * On SQLite, the balances as the database holds them, read at most once an event-loop turn while nothing can
 * have changed them. A read costs its transaction's two lock calls (`fcntl`), about 8 µs, and under load a turn
 * admits about 11 calls (the bench at c=32). Whether another connection (another node, any other process)
 * committed is `pragma data_version`, which takes the same locks, so it is looked at once a turn: a commit made
 * elsewhere during a turn is seen from the next one. Whether this connection wrote is `total_changes()`, which
 * takes no lock, so it is looked at on every read: this node's own writes are seen at once. Inside an open
 * transaction nothing is remembered, since its writes may still roll back.
 */
function readStored(sqlite: SQLite.Database, userId: number, tokenId: number | null): StoredBalances {
  const reads = balanceReads(sqlite);
  if (sqlite.inTransaction) return readFromSqlite(reads, userId, tokenId);
  const { turn } = reads;
  const changes = reads.changes.get()!.changes;
  if (!turn.looked) {
    turn.looked = true;
    setImmediate(() => (turn.looked = false));
    const dataVersion = reads.dataVersion.get()!.data_version;
    if (dataVersion !== turn.dataVersion) {
      turn.dataVersion = dataVersion;
      turn.rows.clear();
    }
  }
  if (changes !== turn.changes || turn.rows.size >= maxRememberedBalances) {
    turn.changes = changes;
    turn.rows.clear();
  }
  const key = `${userId}:${tokenId}`;
  let stored = turn.rows.get(key);
  if (!stored) turn.rows.set(key, (stored = readFromSqlite(reads, userId, tokenId)));
  return stored;
}

/**
 * Reads the balances a call is admitted against. Every node's charges are in the database, not in this
 * node's cached rows, so a debt run up on another node is seen here at once (on SQLite, from the next event-loop
 * turn: `readStored`, one prepared read on the in-process handle, no promise per query); elsewhere one query.
 * A row that is gone reads as 0: nothing to spend.
 */
export async function readBalances(
  database: DatabaseHandle,
  userId: number,
  tokenId: number | null,
): Promise<StoredBalances> {
  const { sqlite } = database;
  if (sqlite) return readStored(sqlite, userId, tokenId);
  const row = await database.db
    .selectFrom('users')
    .select('quota')
    .$if(tokenId !== null, (query) =>
      query.select((select) =>
        select.selectFrom('tokens').select('remain_quota').where('id', '=', tokenId!).as('remain_quota'),
      ),
    )
    .where('id', '=', userId)
    .executeTakeFirst();
  const remain = (row as { remain_quota?: number | string | null } | undefined)?.remain_quota;
  return {
    user: Number(row?.quota ?? 0),
    token: tokenId === null ? null : Number(remain ?? 0),
  };
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
