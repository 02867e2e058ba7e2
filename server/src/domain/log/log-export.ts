import { EventEmitter } from 'node:events';
import { setImmediate as nextTurn, setTimeout as rest } from 'node:timers/promises';
import type { Db, LogRow } from '../../db/tables.js';
import type { Language } from '../../lib/language.js';
import { listLogs, type LogFilters, type LogPosition } from './log.repository.js';

/**
 * Rows read per query: a keyset page keeps each read short and memory flat. 250 rather than 1,000: the database
 * works a quarter as long at a time, so a relay call that needs it meanwhile waits less (measured at 10M logs on
 * PostgreSQL, the relay's p99 during admin work +3.6 to +5.1 ms against +4.4 to +6.2 ms).
 */
export const exportBatchSize = 250;

/**
 * Rows formatted per turn of the event loop. Formatting runs on the event loop on every engine, some 5 ms per
 * 1,000 rows on the 2-core machine: in slices of 200 with a turn between them, a relay call waits at most a
 * millisecond or so behind an export.
 */
const formatSliceRows = 200;

/**
 * After each batch the export rests twice as long as reading and formatting it took, on every engine: it then
 * takes at most a third of a core (the database's or the event loop's) from the relay that shares the machine,
 * and the compression of the answer runs beside it. Measured at 10M logs on PostgreSQL, an export at full speed
 * moved the relay's p99 by about +8 ms and one resting as long as it worked by +4 ms; the price is an export
 * that takes about three times as long (a progress count shows it moving).
 */
const restRatio = 2;

/** A UTF-8 byte order mark: without it Excel reads the file as the local code page and garbles Chinese. */
const byteOrderMark = '\uFEFF';

const headings = {
  zh: [
    '时间',
    '类型',
    '用户名',
    '令牌名称',
    '模型',
    '提示 tokens',
    '补全 tokens',
    '额度',
    '金额（美元）',
    '渠道',
    '请求 ID',
    '耗时（毫秒）',
    '流式',
    '详情',
  ],
  en: [
    'time',
    'type',
    'username',
    'token name',
    'model',
    'prompt tokens',
    'completion tokens',
    'quota',
    'amount (USD)',
    'channel',
    'request id',
    'elapsed ms',
    'stream',
    'content',
  ],
} as const;
const channelColumn = 9;

const typeNames: Record<Language, Record<number, string>> = {
  zh: { 1: '充值', 2: '消费', 3: '管理', 4: '系统', 5: '测试' },
  en: { 1: 'top-up', 2: 'consume', 3: 'manage', 4: 'system', 5: 'test' },
};

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled. Text that a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return) gets a leading
 * single quote first (OWASP's advice against CSV injection); only free text goes through this, so numbers
 * such as a negative quota stay numbers.
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Unix seconds as ISO 8601, in UTC (`Z`) or at the viewer's offset from UTC in seconds (`+08:00`). */
export function isoTime(seconds: number, utcOffsetSeconds = 0): string {
  const local = new Date((seconds + utcOffsetSeconds) * 1000).toISOString().slice(0, 19);
  if (!utcOffsetSeconds) return `${local}Z`;
  const minutes = Math.abs(utcOffsetSeconds) / 60;
  const sign = utcOffsetSeconds < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export interface LogCsvOptions {
  /** Admins see the channel column; users do not. */
  admin: boolean;
  language: Language;
  /** Quota per US dollar (the QuotaPerUnit option). */
  quotaPerUnit: number;
  utcOffsetSeconds?: number;
}

/** The CSV lines of a set of logs: the heading line (with the byte order mark) when `heading`, then one per row. */
export function logCsvLines(rows: readonly LogRow[], options: LogCsvOptions, heading = false): string {
  const keep = (_: unknown, column: number) => options.admin || column !== channelColumn;
  const lines = heading ? [byteOrderMark + headings[options.language].filter(keep).map(csvText).join(',')] : [];
  for (const row of rows) {
    const quota = Number(row.quota);
    const type = Number(row.type);
    const cells = [
      isoTime(Number(row.created_at), options.utcOffsetSeconds),
      csvText(typeNames[options.language][type] ?? String(type)),
      csvText(row.username ?? ''),
      csvText(row.token_name ?? ''),
      csvText(row.model_name ?? ''),
      String(Number(row.prompt_tokens)),
      String(Number(row.completion_tokens)),
      String(quota),
      options.quotaPerUnit > 0 ? String(Number((quota / options.quotaPerUnit).toFixed(6))) : '',
      String(Number(row.channel_id ?? 0)),
      csvText(row.request_id ?? ''),
      String(Number(row.elapsed_time)),
      row.is_stream ? 'true' : 'false',
      csvText(row.content ?? ''),
    ];
    lines.push(cells.filter(keep).join(','));
  }
  return lines.length > 0 ? `${lines.join('\r\n')}\r\n` : '';
}

/** What one export did; sent as `export-end` on exportEvents. */
export interface LogExportOutcome {
  rows: number;
  batches: number;
  /** false when the reader stopped early (the client went away). */
  completed: boolean;
}

/**
 * Events of the running exports (noun-then-verb): `export-batch` ({ rows } read so far) after each batch and
 * `export-end` (a LogExportOutcome). For logging and for tests that check an export stops with its client.
 */
export const exportEvents = new EventEmitter();

/**
 * The filtered logs as CSV text chunks, newest first: the heading, then the rows of keyset batches of
 * `batchSize` (past the last row read, so each read is a short index range scan however deep), a chunk per
 * slice of formatted rows. Nothing is capped: it reads until the rows run out. It reads the next batch only when
 * the consumer asks for the next chunk, so a consumer that writes each chunk with backpressure (a stream piped to a socket) keeps memory to
 * one batch; when the consumer stops (return() on this generator, as a destroyed stream does), no more reads.
 */
export async function* logCsvChunks(
  db: Db,
  filters: LogFilters,
  options: LogCsvOptions,
  batchSize = exportBatchSize,
): AsyncGenerator<string> {
  const outcome: LogExportOutcome = { rows: 0, batches: 0, completed: false };
  try {
    yield logCsvLines([], options, true);
    let cursor: LogPosition = { page: 0 };
    for (;;) {
      let busyMs = 0;
      const reading = performance.now();
      const rows = await listLogs(db, filters, cursor, batchSize);
      busyMs += performance.now() - reading;
      outcome.batches += 1;
      outcome.rows += rows.length;
      exportEvents.emit('export-batch', { rows: outcome.rows });
      for (let from = 0; from < rows.length; from += formatSliceRows) {
        if (from > 0) await nextTurn();
        const formatting = performance.now();
        const chunk = logCsvLines(rows.slice(from, from + formatSliceRows), options);
        busyMs += performance.now() - formatting;
        yield chunk;
      }
      if (rows.length < batchSize) break;
      await rest(busyMs * restRatio);
      const last = rows[rows.length - 1]!;
      cursor = { beforeId: Number(last.id), createdAt: Number(last.created_at) };
    }
    outcome.completed = true;
  } finally {
    exportEvents.emit('export-end', outcome);
  }
}
