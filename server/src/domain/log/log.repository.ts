import type { ExpressionBuilder } from 'kysely';
import { deleteInSlices, type SliceOptions } from '../../db/sliced-delete.js';
import type { Database, Db, LogRow } from '../../db/tables.js';
import { startsWith } from '../../lib/like-pattern.js';
import { itemsPerPage, maxSearchResults } from '../token/token.constants.js';
import { consumptionTotals } from './log-rollup.js';
import { LogType } from './log.constants.js';

/** The filters of the log views; an omitted (or 0 / empty) filter does not restrict. */
export interface LogFilters {
  /** Restricts to one user's logs (the self views), by id rather than one-api's copied username. */
  userId?: number;
  type?: number;
  /** Leaves out the logs of this type (0 / omitted: none left out). */
  excludeType?: number;
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
    if (filters.excludeType) conditions.push(eb('type', '<>', filters.excludeType));
    if (filters.startTimestamp) conditions.push(eb('created_at', '>=', filters.startTimestamp));
    if (filters.endTimestamp) conditions.push(eb('created_at', '<=', filters.endTimestamp));
    if (filters.username) conditions.push(eb('username', '=', filters.username));
    if (filters.tokenName) conditions.push(eb('token_name', '=', filters.tokenName));
    if (filters.modelName) conditions.push(eb('model_name', '=', filters.modelName));
    if (filters.channel) conditions.push(eb('channel_id', '=', filters.channel));
    return eb.and(conditions);
  };
}

/**
 * Where a page of the log list starts: a 0-based page number (one-api's `p`), or a keyset cursor, the id of
 * the row next to the page (`beforeId`: the last row of the page above it, newer; `afterId`: the first row of
 * the page below it, older). A caller that has the cursor row at hand can pass its `createdAt` too.
 */
export type LogPosition =
  | { page: number }
  | { beforeId: number; createdAt?: number }
  | { afterId: number; createdAt?: number }
  | { last: true };

/**
 * True when the filters bound only the time: such lists run in (created_at, id) order, see listLogs. With any
 * other filter the list stays in id order on that filter's (column, id) index: in time order SQLite sorted
 * every matching row per page (an export of three days' consume logs took 10 minutes instead of 7 s).
 */
const boundsOnlyTime = (filters: LogFilters) =>
  Boolean(filters.startTimestamp || filters.endTimestamp) &&
  filters.userId === undefined &&
  !filters.type &&
  !filters.username &&
  !filters.tokenName &&
  !filters.modelName &&
  !filters.channel;

/**
 * The created_at of a cursor row; for a row deleted since (retention), that of the nearest row on the side
 * the page reads from, which keeps the page next to where the cursor was.
 */
async function cursorTime(db: Db, id: number, older: boolean): Promise<number | undefined> {
  const row = await db
    .selectFrom('logs')
    .select('created_at')
    .where('id', older ? '<=' : '>=', id)
    .orderBy('id', older ? 'desc' : 'asc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.created_at);
}

/**
 * One page of matching logs, newest first: `limit` rows (10 by default, as one-api).
 *
 * The list runs in id order: a cursor reads `id < beforeId order by id desc` (or `id > afterId`, read upwards
 * and turned round), a range scan of a (filter column, id) index (migration 2026_11_25_1200), as cheap on page
 * 10,000 as on page 1. Filtered by time alone it runs in (created_at, id) order on the created_at index: in id
 * order PostgreSQL walked the primary key back from the newest row to a day a month ago (0.5 s at 10M rows),
 * as it cannot know that ids grow with time. Both orders are newest
 * first; they differ only for rows written out of time order (imports), where the time order is the right one.
 * A page number still works for one-api's clients: the offset walks only ids and the rows are then fetched
 * by id.
 */
export async function listLogs(
  db: Db,
  filters: LogFilters,
  position: LogPosition | number,
  limit = itemsPerPage,
): Promise<LogRow[]> {
  const at = typeof position === 'number' ? { page: position } : position;
  const matching = db.selectFrom('logs').where(logFilter(filters));
  if ('last' in at) {
    // The oldest page: the same indexes read from the other end, then turned round to newest first.
    const oldest = boundsOnlyTime(filters)
      ? matching.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc')
      : matching.selectAll().orderBy('id', 'asc');
    return (await oldest.limit(limit).execute()).reverse();
  }
  if (!boundsOnlyTime(filters)) {
    if ('beforeId' in at)
      return matching.selectAll().where('id', '<', at.beforeId).orderBy('id', 'desc').limit(limit).execute();
    if ('afterId' in at) {
      const rows = await matching.selectAll().where('id', '>', at.afterId).orderBy('id', 'asc').limit(limit).execute();
      return rows.reverse();
    }
  } else if ('beforeId' in at || 'afterId' in at) {
    const older = 'beforeId' in at;
    const id = older ? at.beforeId : at.afterId;
    const time = at.createdAt ?? (await cursorTime(db, id, older));
    if (time === undefined) return [];
    // (created_at, id) past the cursor's, written so that every engine range-scans the created_at index.
    const rows = await matching
      .selectAll()
      .where('created_at', older ? '<=' : '>=', time)
      .where((eb) => eb.or([eb('created_at', older ? '<' : '>', time), eb('id', older ? '<' : '>', id)]))
      .orderBy('created_at', older ? 'desc' : 'asc')
      .orderBy('id', older ? 'desc' : 'asc')
      .limit(limit)
      .execute();
    return older ? rows : rows.reverse();
  }
  const page = 'page' in at ? at.page : 0;
  const newestFirst = <Q extends { orderBy: (column: 'created_at' | 'id', direction: 'desc') => Q }>(query: Q) =>
    boundsOnlyTime(filters) ? query.orderBy('created_at', 'desc').orderBy('id', 'desc') : query.orderBy('id', 'desc');
  if (page === 0) return newestFirst(matching.selectAll()).limit(limit).execute();
  // Only the columns of the walked index, so the offset never reads whole rows (migration 2026_11_25_1500);
  // then the page's rows by id. Two statements: joined to the offset as a derived table, SQLite's planner
  // scanned every log for the join, and MySQL takes no LIMIT in an IN subquery.
  const ids = await (
    boundsOnlyTime(filters) ? newestFirst(matching.select(['id', 'created_at'])) : newestFirst(matching.select('id'))
  )
    .limit(limit)
    .offset(page * limit)
    .execute();
  if (ids.length === 0) return [];
  return newestFirst(
    db
      .selectFrom('logs')
      .selectAll()
      .where(
        'id',
        'in',
        ids.map((row) => row.id),
      ),
  ).execute();
}

/** Most non-consume logs one count reads; past it the count says it is a lower bound. */
export const LOG_COUNT_CAP = 100_000;

/** Types counted row by row: every type but consume, whose count the rollups hold. */
const COUNTED_TYPES = [LogType.Unknown, LogType.TopUp, LogType.Manage, LogType.System, LogType.Test];

/**
 * How many logs match, without a COUNT over millions of rows (decisions 0017/0018): consume logs from the
 * hourly rollups (exact, with raw rows only at the edges), the other types, few by nature, counted on the
 * (type, id) index and capped at LOG_COUNT_CAP rows (`exact: false` past it).
 */
export async function countLogs(db: Db, filters: LogFilters): Promise<{ total: number; exact: boolean }> {
  const { excludeType, ...kept } = filters;
  const wantsConsume = (!filters.type || filters.type === LogType.Consume) && excludeType !== LogType.Consume;
  const consume = wantsConsume ? (await consumptionTotals(db, kept)).calls : 0;
  if (filters.type === LogType.Consume) return { total: consume, exact: true };
  const types = (filters.type ? [filters.type] : COUNTED_TYPES).filter((type) => type !== excludeType);
  if (types.length === 0) return { total: consume, exact: true };
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('logs')
        .select('id')
        .where(logFilter({ ...kept, type: undefined }))
        .where('type', 'in', types)
        .limit(LOG_COUNT_CAP + 1)
        .as('counted'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst();
  const others = Number(row?.count ?? 0);
  return others > LOG_COUNT_CAP
    ? { total: consume + LOG_COUNT_CAP, exact: false }
    : { total: consume + others, exact: true };
}

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

/**
 * Total quota (and tokens) of the consume logs matching the filters; the type filter is ignored. Read from
 * the hourly rollups, with the raw logs only for the partial hours at the edges (log-rollup.ts).
 */
export async function sumConsumption(db: Db, filters: LogFilters): Promise<{ quota: number; token: number }> {
  const totals = await consumptionTotals(db, filters);
  return { quota: totals.quota, token: totals.prompt_tokens + totals.completion_tokens };
}

export interface LogDeleteOptions extends SliceOptions {
  /** Only logs of this type (all types when omitted). */
  type?: number;
  /**
   * Where the times of the oldest and newest matching logs are read (the created_at index): the SQLite reader
   * thread, else `db`.
   */
  reads?: Db;
  /** Logs with a lower id are kept (the retention keeps consume logs the rollups do not hold yet). */
  fromId?: number;
}

/**
 * Slices of created_at seconds: the first is a minute, then the width adapts to the rows per second (a busy
 * install writes hundreds a second, a quiet one a few an hour).
 */
const logTimeSlices = { sliceWidth: 60, minSliceWidth: 1, maxSliceWidth: 30 * 86_400 } as const;

/**
 * Deletes every log written before the timestamp (of one type when asked) in slices of time, yielding to the
 * event loop between slices (see deleteInSlices); answers how many went. Each slice is a range of the
 * created_at index, so a run reads only the rows it deletes: bounds taken from ids (`max(id) where created_at
 * < t`) made PostgreSQL walk the primary key back through every newer row, 1.5 s at 10M logs, on each run.
 * Rows written out of id order (imports) go with their time.
 */
export async function deleteLogsBefore(db: Db, timestamp: number, options: LogDeleteOptions = {}): Promise<number> {
  const { type, fromId } = options;
  const bounds = await (options.reads ?? db)
    .selectFrom('logs')
    .select((eb) => [eb.fn.min<number>('created_at').as('first'), eb.fn.max<number>('created_at').as('last')])
    .where('created_at', '<', timestamp)
    .$if(type !== undefined, (query) => query.where('type', '=', type!))
    .executeTakeFirst();
  if (bounds?.first == null || bounds.last == null) return 0;
  return deleteInSlices(
    Number(bounds.first),
    Number(bounds.last),
    async (from, to) => {
      const result = await db
        .deleteFrom('logs')
        .where('created_at', '>=', from)
        .where('created_at', '<=', to)
        .$if(type !== undefined, (query) => query.where('type', '=', type!))
        .$if(fromId !== undefined, (query) => query.where('id', '>=', fromId!))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    { ...logTimeSlices, ...options },
  );
}
