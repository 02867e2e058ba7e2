import { readOnlyDatabase } from '../../../db/sqlite-reader.js';
import type { LogFilters } from '../../../domain/log/log.repository.js';
import { listLogs, searchLogs, sumConsumption } from '../../../domain/log/log.repository.js';
import { logCleanupProgress, startLogCleanup } from '../../../domain/log/log-retention.js';
import { presentLog } from '../../../domain/log/log.presenter.js';
import { seriesGranularitySeconds, usageSeries } from '../../../domain/log/log.series.js';
import { AppError } from '../../../lib/errors.js';
import { nowSeconds } from '../../../lib/time.js';
import { currentUser } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';
import { logDeleteQuery, logListQuery, logSearchQuery, logSeriesQuery, type LogFilterQuery } from './log.schema.js';

/** Most buckets one chart request may ask for (a month of hours, a year and a half of days). */
const maxSeriesBuckets = 800;

const toFilters = (query: LogFilterQuery): LogFilters => ({
  type: query.type,
  startTimestamp: query.start_timestamp,
  endTimestamp: query.end_timestamp,
  username: query.username,
  tokenName: query.token_name,
  modelName: query.model_name,
  channel: query.channel,
});

/** The self views always filter by the caller's id, never by the username copied into old rows. */
const ownFilters = (query: LogFilterQuery, userId: number): LogFilters => ({
  ...toFilters(query),
  username: undefined,
  userId,
});

const timestampRequired = () =>
  new AppError('target_timestamp_required', { zh: 'target timestamp is required', en: 'target timestamp is required' });

const cleanupRunning = () =>
  new AppError('already_running', { zh: '日志清理正在进行中，请稍后再试', en: 'a log cleanup is already running' });

const rangeTooLarge = () =>
  new AppError('series_range_too_large', {
    zh: `时间范围过大，最多 ${maxSeriesBuckets} 个时间段，请缩小范围或改用按天统计`,
    en: `the time range is too large: at most ${maxSeriesBuckets} buckets; narrow it or use daily buckets`,
  });

/** Usage logs: everyone's for admins, one's own for users; totals and the per-model usage chart. */
export const logRoutes: RouteModule = (app, { context, requireAdmin, requireUser }) => {
  // Reads only: on SQLite they run in the reader thread, off the event loop (a write through it fails).
  const logs = () => readOnlyDatabase(context, context.logDatabase);

  app.get('/log', { preHandler: requireAdmin }, async (request) => {
    const query = validate(logListQuery, request.query);
    return ok((await listLogs(logs(), toFilters(query), query.p)).map(presentLog));
  });

  app.get('/log/self', { preHandler: requireUser }, async (request) => {
    const query = validate(logListQuery, request.query);
    const rows = await listLogs(logs(), ownFilters(query, currentUser(request).id), query.p);
    return ok(rows.map(presentLog));
  });

  app.get('/log/search', { preHandler: requireAdmin }, async (request) => {
    const { keyword } = validate(logSearchQuery, request.query);
    return ok((await searchLogs(logs(), keyword)).map(presentLog));
  });

  app.get('/log/self/search', { preHandler: requireUser }, async (request) => {
    const { keyword } = validate(logSearchQuery, request.query);
    return ok((await searchLogs(logs(), keyword, currentUser(request).id)).map(presentLog));
  });

  app.get('/log/stat', { preHandler: requireAdmin }, async (request) => {
    const query = validate(logListQuery, request.query);
    return ok(await sumConsumption(logs(), toFilters(query)));
  });

  app.get('/log/self/stat', { preHandler: requireUser }, async (request) => {
    const query = validate(logListQuery, request.query);
    return ok(await sumConsumption(logs(), ownFilters(query, currentUser(request).id)));
  });

  const series = (own: boolean) => async (request: Parameters<typeof currentUser>[0]) => {
    const query = validate(logSeriesQuery, request.query);
    const width = seriesGranularitySeconds[query.granularity];
    const end = query.end_timestamp || nowSeconds();
    const start = query.start_timestamp || end - 7 * 86_400;
    if ((end - start) / width > maxSeriesBuckets) throw rangeTooLarge();
    const filters = {
      ...(own ? ownFilters(query, currentUser(request).id) : toFilters(query)),
      startTimestamp: start,
      endTimestamp: end,
    };
    return ok(await usageSeries(logs(), filters, query.granularity, query.utc_offset));
  };
  app.get('/log/series', { preHandler: requireAdmin }, series(false));
  app.get('/log/self/series', { preHandler: requireUser }, series(true));

  /** one-api's answer: `data` = rows deleted, once all are; the delete runs in slices, with progress below. */
  app.delete('/log', { preHandler: requireAdmin }, async (request) => {
    const { target_timestamp: target } = validate(logDeleteQuery, request.query);
    if (!target) throw timestampRequired();
    const cleanup = await startLogCleanup(context, target);
    if (!cleanup) throw cleanupRunning();
    return ok(await cleanup.deleted);
  });

  app.get('/log/cleanup/status', { preHandler: requireAdmin }, async () => ok(await logCleanupProgress(context)));
};
