import type { AppContext } from '../../context.js';
import type { DialectName } from '../../db/connect.js';
import type { Db, NewLog } from '../../db/tables.js';
import { addRollups, rollupsOf } from './log-rollup.js';
import { nowSeconds } from '../../lib/time.js';
import { LogType } from './log.constants.js';

export type LogEntry = Omit<NewLog, 'created_at' | 'id'> & { created_at?: number };

/** A log row with every column but the id set: one shape for every row, so one prepared insert fits all. */
export type LogRow = Required<Omit<NewLog, 'id'>>;

/**
 * Writes one log row to the log database. Consume logs are skipped when LogConsumeEnabled is off.
 * The caller passes the username it already knows (one-api looked it up again for every log).
 */
export async function recordLog(context: AppContext, entry: LogEntry): Promise<void> {
  const row = logRow(context, entry);
  if (row) await insertLogRows(context.logDatabase.db, context.logDatabase.dialect, [row]);
}

/** The row to write for an entry (absent columns take the table's defaults), or null when LogConsumeEnabled is off and it is a consume log. */
export function logRow(context: AppContext, entry: LogEntry): LogRow | null {
  if (entry.type === LogType.Consume && !context.options.bool('LogConsumeEnabled')) return null;
  return {
    user_id: entry.user_id,
    created_at: entry.created_at ?? nowSeconds(),
    type: entry.type,
    content: entry.content ?? '',
    username: entry.username ?? '',
    token_name: entry.token_name ?? '',
    model_name: entry.model_name ?? '',
    quota: entry.quota ?? 0,
    prompt_tokens: entry.prompt_tokens ?? 0,
    completion_tokens: entry.completion_tokens ?? 0,
    channel_id: entry.channel_id ?? 0,
    request_id: entry.request_id ?? '',
    elapsed_time: entry.elapsed_time ?? 0,
    is_stream: entry.is_stream ?? 0,
    system_prompt_reset: entry.system_prompt_reset ?? 0,
    other: entry.other ?? null,
  };
}

/** Rows per INSERT: 17 columns each stays far below every engine's limit on bound parameters. */
const rowsPerInsert = 200;

/**
 * Inserts log rows, many per statement (the relay writes its consume logs in groups), into the log database
 * or a transaction on it, and adds the consume logs to their hourly rollups. Outside a transaction, logs and
 * rollups are one.
 */
export async function insertLogRows(db: Db, dialect: DialectName, rows: readonly LogRow[]): Promise<void> {
  const rollups = rollupsOf(rows);
  const write = async (target: Db) => {
    for (let start = 0; start < rows.length; start += rowsPerInsert)
      await target
        .insertInto('logs')
        .values(rows.slice(start, start + rowsPerInsert))
        .execute();
    await addRollups(target, dialect, rollups);
  };
  if (rollups.detail.length > 0 && !db.isTransaction) await db.transaction().execute(write);
  else await write(db);
}

/** one-api's amount text (LogQuota): `＄0.002000 额度` with currency display on, `1000 点额度` otherwise. */
export function quotaText(context: AppContext, quota: number): string {
  if (context.options.bool('DisplayInCurrencyEnabled')) {
    return `＄${(quota / context.options.number('QuotaPerUnit')).toFixed(6)} 额度`;
  }
  return `${quota} 点额度`;
}
