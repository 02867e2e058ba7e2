import type { AppContext } from '../../context.js';
import { consumptionSeries } from '../log/log-rollup.js';

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
 * The caller's consumption of the last 7 UTC days (today included), per day and model, from the hourly
 * rollups. Days are integer arithmetic on Unix timestamps, the same on SQLite, PostgreSQL and MySQL, instead
 * of each engine's date functions and time zone (one-api's drift).
 */
export async function userDashboard(
  context: AppContext,
  userId: number,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<DashboardRow[]> {
  const todayStart = nowSeconds - (nowSeconds % daySeconds);
  const points = await consumptionSeries(
    context.logDatabase.db,
    { userId, startTimestamp: todayStart - 6 * daySeconds, endTimestamp: todayStart + daySeconds - 1 },
    daySeconds,
  );
  return points.map((point) => ({
    Day: new Date(point.time * 1000).toISOString().slice(0, 10),
    ModelName: point.model_name,
    RequestCount: point.requests,
    Quota: point.quota,
    PromptTokens: point.prompt_tokens,
    CompletionTokens: point.completion_tokens,
  }));
}
