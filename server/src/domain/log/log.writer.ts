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
  if (entry.type === LogType.Consume && !context.options.bool('LogConsumeEnabled')) return;
  await context.logDatabase.db
    .insertInto('logs')
    .values({ created_at: nowSeconds(), content: '', ...entry })
    .execute();
}

/** one-api's amount text (LogQuota): `＄0.002000 额度` with currency display on, `1000 点额度` otherwise. */
export function quotaText(context: AppContext, quota: number): string {
  if (context.options.bool('DisplayInCurrencyEnabled')) {
    return `＄${(quota / context.options.number('QuotaPerUnit')).toFixed(6)} 额度`;
  }
  return `${quota} 点额度`;
}
