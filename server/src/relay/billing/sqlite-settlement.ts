import type SQLite from 'better-sqlite3';
import type { LogRow } from '../../domain/log/log.writer.js';
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
};
const logColumns = Object.keys(logColumnSet) as (keyof LogRow)[];

// Positional parameters: binding fifteen named ones from an object costs more than the insert itself.
const logInsert = `insert into "logs" (${logColumns.map((column) => `"${column}"`).join(', ')})
  values (${logColumns.map(() => '?').join(', ')})`;

const writers = new WeakMap<SQLite.Database, (totals: BalanceTotals, logs: readonly LogRow[]) => void>();

/**
 * The settlement write on SQLite, the default engine: balances and consume logs in one synchronous
 * transaction (one commit) through prepared statements. The generic path runs every statement through
 * Kysely's compiler and a promise each, which cost more than the writes themselves (decision 0005).
 */
export function writeSettlementsToSqlite(
  sqlite: SQLite.Database,
  totals: BalanceTotals,
  logs: readonly LogRow[],
): void {
  let write = writers.get(sqlite);
  if (!write) {
    const updateToken = sqlite.prepare(tokenUpdate);
    const updateUser = sqlite.prepare(userUpdate);
    const updateChannel = sqlite.prepare(channelUpdate);
    const insertLog = sqlite.prepare(logInsert);
    write = sqlite.transaction((taken: BalanceTotals, rows: readonly LogRow[]) => {
      for (const [id, { balance, used }] of sortedById(taken.tokens))
        if (balance !== 0 || used !== 0) updateToken.run({ id, balance, used });
      for (const [id, { balance, used, requests }] of sortedById(taken.users))
        updateUser.run({ id, balance, used, requests });
      for (const [id, used] of sortedById(taken.channels)) updateChannel.run({ id, used });
      for (const row of rows) insertLog.run(logColumns.map((column) => row[column]));
    });
    writers.set(sqlite, write);
  }
  write(totals, logs);
}
