import type { AppContext } from '../../context.js';
import type { NewLog } from '../../db/tables.js';
import { nowSeconds } from '../../lib/time.js';
import { LogType } from './log.constants.js';

export type LogEntry = Omit<NewLog, 'created_at' | 'id'> & { created_at?: number };

/**
 * Writes one log row to the log database. Consume logs are skipped when LogConsumeEnabled is off.
 * The caller passes the username it already knows (one-api looked it up again for every log).
 */
export async function recordLog(context: AppContext, entry: LogEntry): Promise<void> {
  const row = logRow(context, entry);
  if (row) await insertLogRows(context, [row]);
}

/** The row to write for an entry, or null when LogConsumeEnabled is off and it is a consume log. */
export function logRow(context: AppContext, entry: LogEntry): NewLog | null {
  if (entry.type === LogType.Consume && !context.options.bool('LogConsumeEnabled')) return null;
  return { created_at: nowSeconds(), content: '', ...entry };
}

/** Rows per INSERT: 16 columns each stays far below every engine's limit on bound parameters. */
const rowsPerInsert = 200;

/** Inserts log rows, many per statement (the relay writes its consume logs in groups). */
export async function insertLogRows(context: AppContext, rows: readonly NewLog[]): Promise<void> {
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    await context.logDatabase.db
      .insertInto('logs')
      .values(rows.slice(start, start + rowsPerInsert))
      .execute();
  }
}

/** one-api's amount text (LogQuota): `＄0.002000 额度` with currency display on, `1000 点额度` otherwise. */
export function quotaText(context: AppContext, quota: number): string {
  if (context.options.bool('DisplayInCurrencyEnabled')) {
    return `＄${(quota / context.options.number('QuotaPerUnit')).toFixed(6)} 额度`;
  }
  return `${quota} 点额度`;
}
