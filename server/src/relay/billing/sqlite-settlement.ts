import type SQLite from 'better-sqlite3';
import type { NewLog } from '../../db/tables.js';
import { sortedById, type BalanceTotals } from './quota-batcher.js';

// A charge (positive) never takes a balance below zero; a refund (negative) adds back.
const tokenUpdate = `update "tokens" set
  "remain_quota" = case when :balance > 0 then max("remain_quota" - :balance, 0) else "remain_quota" - :balance end,
  "used_quota" = "used_quota" + :used
  where "id" = :id`;
const userUpdate = `update "users" set
  "quota" = case when :balance > 0 then max("quota" - :balance, 0) else "quota" - :balance end,
  "used_quota" = "used_quota" + :used,
  "request_count" = "request_count" + :requests
  where "id" = :id`;
const channelUpdate = `update "channels" set "used_quota" = "used_quota" + :used where "id" = :id`;

/** The insert for each set of columns a log row has (a handful of shapes); connect.ts keeps each prepared. */
const logInserts = new Map<string, string>();
const logInsert = (log: NewLog) => {
  const signature = Object.keys(log).join(',');
  let insert = logInserts.get(signature);
  if (!insert) {
    const columns = signature.split(',');
    insert = `insert into "logs" (${columns.map((name) => `"${name}"`).join(', ')}) values (${columns.map((name) => `:${name}`).join(', ')})`;
    logInserts.set(signature, insert);
  }
  return insert;
};

const writers = new WeakMap<SQLite.Database, (totals: BalanceTotals, logs: readonly NewLog[]) => void>();

/**
 * The settlement write on SQLite, the default engine: balances and consume logs in one synchronous
 * transaction (one commit) through prepared statements. The generic path runs every statement through
 * Kysely's compiler and a promise each, which cost more than the writes themselves (decision 0005).
 */
export function writeSettlementsToSqlite(
  sqlite: SQLite.Database,
  totals: BalanceTotals,
  logs: readonly NewLog[],
): void {
  let write = writers.get(sqlite);
  if (!write) {
    write = sqlite.transaction((taken: BalanceTotals, rows: readonly NewLog[]) => {
      const tokens = sqlite.prepare(tokenUpdate);
      for (const [id, { balance, used }] of sortedById(taken.tokens))
        if (balance !== 0 || used !== 0) tokens.run({ id, balance, used });
      const users = sqlite.prepare(userUpdate);
      for (const [id, { balance, used, requests }] of sortedById(taken.users))
        users.run({ id, balance, used, requests });
      const channels = sqlite.prepare(channelUpdate);
      for (const [id, used] of sortedById(taken.channels)) channels.run({ id, used });
      for (const row of rows) sqlite.prepare(logInsert(row)).run(row);
    });
    writers.set(sqlite, write);
  }
  write(totals, logs);
}
