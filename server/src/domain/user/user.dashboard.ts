import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { LogType } from '../log/log.constants.js';

/** One dashboard row, with one-api's capitalised (Go field) keys, which its console reads. */
export interface DashboardRow {
  Day: string;
  ModelName: string;
  RequestCount: number;
  Quota: number;
  PromptTokens: number;
  CompletionTokens: number;
}

const daySeconds = 86_400;

/**
 * The caller's consumption of the last 7 UTC days (today included), per day and model. Days are bucketed
 * by integer arithmetic on the Unix timestamp (`created_at - created_at % 86400`), which means the same on
 * SQLite, PostgreSQL and MySQL, instead of each engine's date functions and time zone (one-api's drift).
 */
export async function userDashboard(
  context: AppContext,
  userId: number,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<DashboardRow[]> {
  const todayStart = nowSeconds - (nowSeconds % daySeconds);
  const start = todayStart - 6 * daySeconds;
  const end = todayStart + daySeconds;
  const dayStart = sql<number>`(${sql.ref('created_at')} - (${sql.ref('created_at')} % ${sql.lit(daySeconds)}))`;
  const rows = await context.logDatabase.db
    .selectFrom('logs')
    .select([
      dayStart.as('day_start'),
      'model_name',
      (eb) => eb.fn.countAll<number>().as('request_count'),
      (eb) => eb.fn.sum<number>('quota').as('quota'),
      (eb) => eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
      (eb) => eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
    ])
    .where('user_id', '=', userId)
    .where('type', '=', LogType.Consume)
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .groupBy([dayStart, 'model_name'])
    .orderBy('day_start')
    .orderBy('model_name')
    .execute();
  return rows.map((row) => ({
    Day: new Date(Number(row.day_start) * 1000).toISOString().slice(0, 10),
    ModelName: row.model_name,
    RequestCount: Number(row.request_count),
    Quota: Number(row.quota ?? 0),
    PromptTokens: Number(row.prompt_tokens ?? 0),
    CompletionTokens: Number(row.completion_tokens ?? 0),
  }));
}
