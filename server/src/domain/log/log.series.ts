import { sql } from 'kysely';
import type { Db } from '../../db/tables.js';
import { LogType } from './log.constants.js';
import { logFilter, type LogFilters } from './log.repository.js';

/** Bucket widths of the usage chart. */
export const seriesGranularitySeconds = { hour: 3600, day: 86_400 } as const;
export type SeriesGranularity = keyof typeof seriesGranularitySeconds;

/** One point of the usage chart: the consumption of one model in one time bucket. */
export interface UsagePoint {
  /** Start of the bucket, Unix seconds. */
  time: number;
  model_name: string;
  quota: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * Consumption per time bucket and model over the consume logs matching the filters. Buckets are computed
 * with integer arithmetic on `created_at` (no database date functions), so every engine agrees and days
 * do not depend on the database's time zone; `utcOffsetSeconds` moves day boundaries to the viewer's zone.
 */
export async function usageSeries(
  db: Db,
  filters: LogFilters,
  granularity: SeriesGranularity,
  utcOffsetSeconds = 0,
): Promise<UsagePoint[]> {
  const width = sql.lit(seriesGranularitySeconds[granularity]);
  const offset = sql.lit(Math.trunc(utcOffsetSeconds));
  // Literals, not parameters: PostgreSQL must see the same expression in SELECT and GROUP BY.
  const shifted = sql`(${sql.ref('created_at')} + ${offset})`;
  const bucket = sql<number>`(${shifted} - (${shifted} % ${width}) - ${offset})`;
  const rows = await db
    .selectFrom('logs')
    .select((eb) => [
      bucket.as('time'),
      'model_name',
      eb.fn.sum<number>('quota').as('quota'),
      eb.fn.countAll<number>().as('requests'),
      eb.fn.sum<number>('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number>('completion_tokens').as('completion_tokens'),
    ])
    .where(logFilter({ ...filters, type: LogType.Consume }))
    .groupBy([bucket, 'model_name'])
    .orderBy(bucket)
    .orderBy('model_name')
    .execute();
  return rows.map((row) => ({
    time: Number(row.time),
    model_name: row.model_name ?? '',
    quota: Number(row.quota ?? 0),
    requests: Number(row.requests),
    prompt_tokens: Number(row.prompt_tokens ?? 0),
    completion_tokens: Number(row.completion_tokens ?? 0),
  }));
}
