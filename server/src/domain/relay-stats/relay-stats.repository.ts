import { sql } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import type { Db } from '../../db/tables.js';
import { LATENCY_COLUMNS } from './latency-buckets.js';
import type { OutcomeCell } from './relay-stats.aggregator.js';

/** Rows per statement: 19 values each, well under every engine's limit on bound parameters. */
const cellsPerStatement = 200;

/**
 * Adds each cell's counts to its row, creating the rows that do not exist yet: one upsert per 200 cells. A flush
 * holds a cell per channel and model that served in the minute, so a statement per cell made the flush of a
 * 2,000-channel installation thousands of statements (issue 28). Answers how many cells were written before a
 * failure stopped it (all of them when none did).
 */
export async function addOutcomeCells(db: Db, dialect: DialectName, cells: OutcomeCell[]): Promise<number> {
  const counted = ['success_count', 'failure_count', ...LATENCY_COLUMNS] as const;
  for (let start = 0; start < cells.length; start += cellsPerStatement) {
    const rows = cells.slice(start, start + cellsPerStatement).map((cell) => ({
      bucket_start: cell.bucketStart,
      model_name: cell.model,
      channel_id: cell.channelId,
      success_count: cell.successCount,
      failure_count: cell.failureCount,
      ...Object.fromEntries(LATENCY_COLUMNS.map((column, index) => [column, cell.latency[index] ?? 0])),
    }));
    const insert = db.insertInto('relay_outcomes').values(rows as never);
    try {
      if (dialect === 'mysql')
        await insert
          .onDuplicateKeyUpdate(
            Object.fromEntries(counted.map((column) => [column, sql`${sql.ref(column)} + values(${sql.ref(column)})`])),
          )
          .execute();
      else
        await insert
          .onConflict((conflict) =>
            conflict
              .columns(['bucket_start', 'model_name', 'channel_id'])
              .doUpdateSet(
                Object.fromEntries(
                  counted.map((column) => [
                    column,
                    sql`${sql.ref(`relay_outcomes.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
                  ]),
                ) as never,
              ),
          )
          .execute();
    } catch (error) {
      throw Object.assign(error as Error, { written: start });
    }
  }
  return cells.length;
}

/** Summed counts of one group (a model or a channel) over a window. */
export interface OutcomeSums {
  key: string | number;
  successCount: number;
  failureCount: number;
  latency: number[];
}

/** Sums outcomes since `sinceSeconds`, grouped by model name or by channel id. */
export async function sumOutcomes(
  db: Db,
  sinceSeconds: number,
  by: 'model_name' | 'channel_id',
): Promise<OutcomeSums[]> {
  const rows = await db
    .selectFrom('relay_outcomes')
    .select((eb) => [
      eb.ref(by).as('group_key'),
      eb.fn.sum<number | string>('success_count').as('success_count'),
      eb.fn.sum<number | string>('failure_count').as('failure_count'),
      ...LATENCY_COLUMNS.map((column) => eb.fn.sum<number | string>(column).as(column)),
    ])
    .where('bucket_start', '>=', sinceSeconds)
    .groupBy(by)
    .execute();
  return rows.map((row) => {
    const record = row as unknown as Record<string, number | string | null>;
    return {
      key: by === 'channel_id' ? Number(record.group_key) : String(record.group_key),
      successCount: Number(record.success_count ?? 0),
      failureCount: Number(record.failure_count ?? 0),
      latency: LATENCY_COLUMNS.map((column) => Number(record[column] ?? 0)),
    };
  });
}

/** Deletes rows older than the cut-off; answers how many went. */
export async function pruneOutcomes(db: Db, beforeSeconds: number): Promise<number> {
  const result = await db.deleteFrom('relay_outcomes').where('bucket_start', '<', beforeSeconds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Models of a group (all, and those with an enabled channel now), from the routing index. */
export async function modelsOfGroup(db: Db, group: string): Promise<{ all: string[]; enabled: Set<string> }> {
  const rows = await db
    .selectFrom('abilities')
    .select(['model', 'enabled'])
    .where('group', '=', group)
    .where('model', '!=', '')
    .execute();
  const all = [...new Set(rows.map((row) => row.model))].sort();
  const enabled = new Set(rows.filter((row) => Boolean(row.enabled)).map((row) => row.model));
  return { all, enabled };
}

/** Every channel's id, name and status, for the admin view. */
export const listChannelSummaries = (db: Db) =>
  db.selectFrom('channels').select(['id', 'name', 'status']).orderBy('id', 'asc').execute();
