import type { ExpressionBuilder } from 'kysely';
import type { Database, Db, LogRow } from '../../db/tables.js';
import { startsWith } from '../../lib/like-pattern.js';
import { itemsPerPage, maxSearchResults } from '../token/token.constants.js';
import { LogType } from './log.constants.js';

/** The filters of the log views; an omitted (or 0 / empty) filter does not restrict. */
export interface LogFilters {
  /** Restricts to one user's logs (the self views), by id rather than one-api's copied username. */
  userId?: number;
  type?: number;
  /** Inclusive Unix-seconds bounds. */
  startTimestamp?: number;
  endTimestamp?: number;
  username?: string;
  tokenName?: string;
  modelName?: string;
  channel?: number;
}

/** The WHERE clause for a set of filters (names are exact matches, as in one-api). */
export function logFilter(filters: LogFilters) {
  return (eb: ExpressionBuilder<Database, 'logs'>) => {
    const conditions = [];
    if (filters.userId !== undefined) conditions.push(eb('user_id', '=', filters.userId));
    if (filters.type) conditions.push(eb('type', '=', filters.type));
    if (filters.startTimestamp) conditions.push(eb('created_at', '>=', filters.startTimestamp));
    if (filters.endTimestamp) conditions.push(eb('created_at', '<=', filters.endTimestamp));
    if (filters.username) conditions.push(eb('username', '=', filters.username));
    if (filters.tokenName) conditions.push(eb('token_name', '=', filters.tokenName));
    if (filters.modelName) conditions.push(eb('model_name', '=', filters.modelName));
    if (filters.channel) conditions.push(eb('channel_id', '=', filters.channel));
    return eb.and(conditions);
  };
}

/** One page (10 rows) of matching logs, newest first. */
export const listLogs = (db: Db, filters: LogFilters, page: number): Promise<LogRow[]> =>
  db
    .selectFrom('logs')
    .selectAll()
    .where(logFilter(filters))
    .orderBy('id', 'desc')
    .limit(itemsPerPage)
    .offset(page * itemsPerPage)
    .execute();

/**
 * Logs whose type equals the keyword (when it is a number) or whose content starts with it, newest first,
 * at most 100; `userId` restricts the search to one user's logs.
 */
export function searchLogs(db: Db, keyword: string, userId?: number): Promise<LogRow[]> {
  const type = /^\d{1,3}$/.test(keyword) ? Number(keyword) : null;
  let query = db.selectFrom('logs').selectAll();
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query
    .where((eb) =>
      type === null ? startsWith('content', keyword) : eb.or([eb('type', '=', type), startsWith('content', keyword)]),
    )
    .orderBy('id', 'desc')
    .limit(maxSearchResults)
    .execute();
}

/** Total quota (and tokens) of the consume logs matching the filters; the type filter is ignored. */
export async function sumConsumption(db: Db, filters: LogFilters): Promise<{ quota: number; token: number }> {
  const row = await db
    .selectFrom('logs')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('quota'), eb.lit(0)).as('quota'),
      eb.fn.coalesce(eb.fn.sum<number>('prompt_tokens'), eb.lit(0)).as('prompt'),
      eb.fn.coalesce(eb.fn.sum<number>('completion_tokens'), eb.lit(0)).as('completion'),
    ])
    .where(logFilter({ ...filters, type: LogType.Consume }))
    .executeTakeFirst();
  return { quota: Number(row?.quota ?? 0), token: Number(row?.prompt ?? 0) + Number(row?.completion ?? 0) };
}

/** Deletes every log written before the timestamp; answers how many went. */
export async function deleteLogsBefore(db: Db, timestamp: number): Promise<number> {
  const result = await db.deleteFrom('logs').where('created_at', '<', timestamp).executeTakeFirst();
  return Number(result.numDeletedRows);
}
