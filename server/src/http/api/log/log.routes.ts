import { Readable } from 'node:stream';
import {
  logDeleteQuery,
  logExportQuery,
  logFilterQuery,
  logListQuery,
  logSearchQuery,
  logSeriesQuery,
  type LogFilterQuery,
  type LogListQuery,
} from '@modelgate/wire';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readOnlyDatabase } from '../../../db/sqlite-thread.js';
import { logCsvChunks } from '../../../domain/log/log-export.js';
import type { LogFilters, LogPosition } from '../../../domain/log/log.repository.js';
import { countLogs, listLogs, searchLogs, sumConsumption } from '../../../domain/log/log.repository.js';
import { logCleanupProgress, startLogCleanup } from '../../../domain/log/log-retention.js';
import { presentLog } from '../../../domain/log/log.presenter.js';
import { seriesGranularitySeconds, usageSeries } from '../../../domain/log/log.series.js';
import { AppError } from '../../../lib/errors.js';
import { languageOf } from '../../../lib/language.js';
import { nowSeconds } from '../../../lib/time.js';
import { currentUser } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

/** Most buckets one chart request may ask for (a month of hours, a year and a half of days). */
const maxSeriesBuckets = 800;

const toFilters = (query: LogFilterQuery): LogFilters => ({
  type: query.type,
  excludeType: query.exclude_type,
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

/** The oldest page wins over a cursor, a cursor over the page number (one-api's clients send only `p`). */
const positionOf = (query: LogListQuery): LogPosition =>
  query.last === '1'
    ? { last: true }
    : query.before_id !== undefined
      ? { beforeId: query.before_id }
      : query.after_id !== undefined
        ? { afterId: query.after_id }
        : { page: query.p };

const exportRunning = () =>
  new AppError(
    'export_running',
    {
      zh: '你已有一个日志导出正在进行，请等待其完成后再试',
      en: 'one of your log exports is still running; try again once it has finished',
    },
    429,
  );

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
  const logs = () => readOnlyDatabase(context.logDatabase);

  app.get('/log', { preHandler: requireAdmin }, async (request) => {
    const query = validate(logListQuery, request.query);
    return ok((await listLogs(logs(), toFilters(query), positionOf(query))).map(presentLog));
  });

  app.get('/log/self', { preHandler: requireUser }, async (request) => {
    const query = validate(logListQuery, request.query);
    const rows = await listLogs(logs(), ownFilters(query, currentUser(request).id), positionOf(query));
    return ok(rows.map(presentLog));
  });

  // One export at a time per user (per process): each holds a database reader busy until it ends.
  const exporting = new Set<number>();
  const exportCsv = (own: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    const query = validate(logExportQuery, request.query);
    const user = currentUser(request);
    const filters = own ? ownFilters(query, user.id) : toFilters(query);
    if (exporting.has(user.id)) throw exportRunning();
    exporting.add(user.id);
    try {
      // The expected row count (the pager's count); a capped count is no total, so no header then.
      const count = await countLogs(logs(), filters);
      if (count.exact) reply.header('x-total-count', String(count.total));
    } catch (error) {
      exporting.delete(user.id);
      throw error;
    }
    const chunks = logCsvChunks(logs(), filters, {
      admin: !own,
      language: languageOf(request.headers['accept-language']),
      quotaPerUnit: context.options.number('QuotaPerUnit'),
      utcOffsetSeconds: query.utc_offset,
    });
    // Byte mode with a small buffer: the next batch is read only once the socket has taken the last one
    // (Fastify pipes the stream and waits for 'drain'); a client that goes away destroys the stream, which
    // ends the generator before its next read.
    const body = Readable.from(chunks, { objectMode: false, highWaterMark: 64 * 1024 });
    body.once('close', () => exporting.delete(user.id));
    const date = new Date((nowSeconds() + (query.utc_offset ?? 0)) * 1000).toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="logs-${date}.csv"`)
      .header('cache-control', 'no-store')
      .send(body);
  };
  app.get('/log/export', { preHandler: requireAdmin }, exportCsv(false));
  app.get('/log/self/export', { preHandler: requireUser }, exportCsv(true));

  app.get('/log/count', { preHandler: requireAdmin }, async (request) => {
    const query = validate(logFilterQuery, request.query);
    return ok(await countLogs(logs(), toFilters(query)));
  });

  app.get('/log/self/count', { preHandler: requireUser }, async (request) => {
    const query = validate(logFilterQuery, request.query);
    return ok(await countLogs(logs(), ownFilters(query, currentUser(request).id)));
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
