import type SQLite from 'better-sqlite3';
import { detailValues, modelValues, rollupsOf, sqliteRollupUpserts } from '../../domain/log/log-rollup.js';
import type { LogRow } from '../../domain/log/log.writer.js';
import { nowSeconds } from '../../lib/time.js';
import {
  sortedById,
  withSweptReservations,
  type BalanceTotals,
  type ClosedReservation,
  type WrittenBalances,
} from './quota-batcher.js';

// Every delta applies in full: a charge may take a balance below zero, the user's debt (decision 0014).
// RETURNING hands back the new balances for this node's caches without a second statement.
const tokenUpdate = `update "tokens" set
  "remain_quota" = "remain_quota" - :balance, "used_quota" = "used_quota" + :used
  where "id" = :id returning "remain_quota", "used_quota"`;
const userUpdate = `update "users" set
  "quota" = "quota" - :balance, "used_quota" = "used_quota" + :used, "request_count" = "request_count" + :requests
  where "id" = :id returning "quota", "used_quota", "request_count"`;
const channelUpdate = `update "channels" set "used_quota" = "used_quota" + :used where "id" = :id`;
const reservationDelete = `delete from "reservations" where "id" = ?`;
const markerSelect = `select 1 from "settlement_writes" where "id" = ?`;
const markerInsert = `insert into "settlement_writes" ("id", "created_at") values (?, ?)`;

// Written as a record, so the compiler insists on every column of LogRow and no other.
const logColumnSet: Record<keyof LogRow, true> = {
  user_id: true,
  created_at: true,
  type: true,
  content: true,
  username: true,
  token_name: true,
  model_name: true,
  quota: true,
  prompt_tokens: true,
  completion_tokens: true,
  channel_id: true,
  request_id: true,
  elapsed_time: true,
  is_stream: true,
  system_prompt_reset: true,
  other: true,
};
const logColumns = Object.keys(logColumnSet) as (keyof LogRow)[];

// Positional parameters: binding sixteen named ones from an object costs more than the insert itself.
const logInsert = `insert into "logs" (${logColumns.map((column) => `"${column}"`).join(', ')})
  values (${logColumns.map(() => '?').join(', ')})`;

type Write = (totals: BalanceTotals, logs: readonly LogRow[], marker: string | undefined) => WrittenBalances | null;
const writers = new WeakMap<SQLite.Database, Write>();

/**
 * The settlement write on SQLite, the default engine: balances, consume logs and their rollups in one synchronous
 * transaction (one commit) through prepared statements. The generic path runs every statement through
 * Kysely's compiler and a promise each, which cost more than the writes themselves (decision 0005).
 * `marker`: a batch written again after a failure carries its marker row, and is skipped (null) when the
 * marker is there already: it reached the database before (a journal replayed after a crash).
 */
export function writeSettlementsToSqlite(
  sqlite: SQLite.Database,
  totals: BalanceTotals,
  logs: readonly LogRow[],
  marker?: string,
): WrittenBalances | null {
  let write = writers.get(sqlite);
  if (!write) {
    const updateToken = sqlite.prepare(tokenUpdate);
    const updateUser = sqlite.prepare(userUpdate);
    const updateChannel = sqlite.prepare(channelUpdate);
    const deleteReservation = sqlite.prepare(reservationDelete);
    const insertLog = sqlite.prepare(logInsert);
    const upsertDetail = sqlite.prepare(sqliteRollupUpserts.detail);
    const upsertByModel = sqlite.prepare(sqliteRollupUpserts.byModel);
    const selectMarker = sqlite.prepare(markerSelect);
    const insertMarker = sqlite.prepare(markerInsert);
    write = sqlite.transaction((taken: BalanceTotals, rows: readonly LogRow[], id: string | undefined) => {
      if (id !== undefined) {
        if (selectMarker.get(id)) return null;
        insertMarker.run(id, nowSeconds());
      }
      const swept: ClosedReservation[] = [];
      for (const reservation of taken.closed)
        if (deleteReservation.run(reservation.id).changes === 0) swept.push(reservation);
      const { users, tokens } = withSweptReservations(taken, swept);
      const written: WrittenBalances = { users: new Map(), tokens: new Map() };
      for (const [id, { balance, used }] of sortedById(tokens)) {
        if (balance === 0 && used === 0) continue;
        const row = updateToken.get({ id, balance, used }) as { remain_quota: number; used_quota: number } | undefined;
        if (row) written.tokens.set(id, row);
      }
      for (const [id, { balance, used, requests }] of sortedById(users)) {
        const row = updateUser.get({ id, balance, used, requests }) as
          { quota: number; used_quota: number; request_count: number } | undefined;
        if (row) written.users.set(id, row);
      }
      for (const [id, used] of sortedById(taken.channels)) updateChannel.run({ id, used });
      for (const row of rows) insertLog.run(logColumns.map((column) => row[column]));
      const rollups = rollupsOf(rows);
      for (const delta of rollups.detail) upsertDetail.run(detailValues(delta));
      for (const delta of rollups.byModel) upsertByModel.run(modelValues(delta));
      return written;
    });
    writers.set(sqlite, write);
  }
  return write(totals, logs, marker);
}
