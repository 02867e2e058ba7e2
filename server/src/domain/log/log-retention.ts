import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import type { DatabaseHandle } from '../../db/connect.js';
import {
  defaultSliceOptions,
  deleteInSlices,
  backgroundSlicePacing,
  type SliceOptions,
  type SliceProgress,
} from '../../db/sliced-delete.js';
import { readOnlyDatabase } from '../../db/sqlite-thread.js';
import type { Db } from '../../db/tables.js';
import { nowSeconds } from '../../lib/time.js';
import { readRunProgress, startExclusiveRun, type RunProgress, type RunReporter } from '../channel/exclusive-run.js';
import type { OptionKey } from '../option/option.definitions.js';
import { LogType } from './log.constants.js';
import { deleteLogsBefore } from './log.repository.js';

/** One run at a time deletes logs, on this node and (with Redis) on any: the admin's delete or the retention. */
export const logCleanupRunName = 'log-cleanup';

const daySeconds = 86_400;
const hourSeconds = 3_600;

/** The option that keeps each log type, in days (0 keeps it forever). Type 0 (unknown) is always kept. */
export const logRetentionOptions = [
  { type: LogType.Consume, option: 'LogRetentionDaysConsume' },
  { type: LogType.TopUp, option: 'LogRetentionDaysTopUp' },
  { type: LogType.Manage, option: 'LogRetentionDaysManage' },
  { type: LogType.System, option: 'LogRetentionDaysSystem' },
  { type: LogType.Test, option: 'LogRetentionDaysTest' },
] as const satisfies readonly { type: number; option: OptionKey }[];

export const rollupRetentionOption: OptionKey = 'LogRollupRetentionDays';

/** How many rows a retention pass removed, by log type number and for the rollups. */
export interface RetentionResult {
  logs: Partial<Record<number, number>>;
  rollups: number;
}

/** Turns slice progress into the run's done / total (total re-estimated as the slice width adapts). */
function progressOf(reporter: RunReporter) {
  let finishedSlices = 0;
  let current = 0;
  return {
    onSlice: async (progress: SliceProgress) => {
      current = progress.slices;
      await reporter.setTotal(finishedSlices + progress.slices + progress.remainingSlices);
      await reporter.advance();
    },
    /** Call when one delete is over, before the next starts. */
    next: () => {
      finishedSlices += current;
      current = 0;
    },
  };
}

/** Whether the table exists in this database (a probe that reads no row). */
async function tableExists(db: Db, table: string): Promise<boolean> {
  try {
    await sql`select 1 from ${sql.table(table)} where 1 = 0`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * The lowest log id whose consume log is already in the hourly rollups, or null when there are no rollups.
 * Logs older than the rollups (a migrated install) are rolled up in the background from the newest down;
 * retention leaves the ones not reached yet, or their history would be gone from the chart and the totals.
 */
async function firstRolledUpId(db: Db): Promise<number | null> {
  try {
    const { rows } = await sql<{
      cursor_id: number | string;
    }>`select cursor_id from log_rollup_state where id = 1`.execute(db);
    return rows[0] ? Number(rows[0].cursor_id) : null;
  } catch {
    return null;
  }
}

/**
 * Deletes the rollup hours that ended before the timestamp, a slice of hours at a time (the rollups'
 * primary key starts with `hour`); answers how many rows went.
 */
export async function deleteRollupsBefore(db: Db, timestamp: number, options: SliceOptions = {}): Promise<number> {
  const last = timestamp - hourSeconds; // the last hour start whose whole hour lies before the timestamp
  const { rows } = await sql<{
    first: number | string | null;
  }>`select min(hour) as first from log_rollups where hour <= ${last}`.execute(db);
  const first = rows[0]?.first;
  if (first === null || first === undefined) return 0;
  return deleteInSlices(
    Number(first),
    last,
    async (from, to) => {
      const result = await sql`delete from log_rollups where hour >= ${from} and hour <= ${to}`.execute(db);
      await sql`delete from log_rollups_by_model where hour >= ${from} and hour <= ${to}`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
    {
      sliceWidth: daySeconds,
      minSliceWidth: hourSeconds,
      maxSliceWidth: 90 * daySeconds,
      targetSliceMs: defaultSliceOptions.targetSliceMs,
      ...options,
    },
  );
}

/**
 * Applies the retention options once: each log type older than its days, then the rollups older than
 * theirs, all in slices. Consume logs not yet in the rollups are kept (see firstRolledUpId).
 */
export async function applyLogRetention(
  context: AppContext,
  options: SliceOptions & { now?: number; reporter?: RunReporter } = {},
): Promise<RetentionResult> {
  const { reporter, now = nowSeconds(), ...sliceOptions } = options;
  const handle: DatabaseHandle = context.logDatabase;
  const progress = reporter ? progressOf(reporter) : null;
  const slices: SliceOptions = {
    ...backgroundSlicePacing(handle.dialect),
    ...sliceOptions,
    onSlice: async (sliceProgress) => {
      await progress?.onSlice(sliceProgress);
      await sliceOptions.onSlice?.(sliceProgress);
    },
  };
  const result: RetentionResult = { logs: {}, rollups: 0 };
  const reads = readOnlyDatabase(handle);
  const rollups = await tableExists(handle.db, 'log_rollups');
  for (const { type, option } of logRetentionOptions) {
    const days = context.options.number(option);
    if (!(days > 0) || sliceOptions.signal?.aborted) continue;
    const fromId = type === LogType.Consume && rollups ? await firstRolledUpId(handle.db) : null;
    result.logs[type] = await deleteLogsBefore(handle.db, now - days * daySeconds, {
      ...slices,
      type,
      reads,
      fromId: fromId ?? undefined,
    });
    progress?.next();
  }
  const rollupDays = context.options.number(rollupRetentionOption);
  if (rollupDays > 0 && rollups && !sliceOptions.signal?.aborted) {
    result.rollups = await deleteRollupsBefore(handle.db, now - rollupDays * daySeconds, slices);
  }
  return result;
}

/** Whether any retention option is set. */
export const retentionEnabled = (context: AppContext): boolean =>
  [...logRetentionOptions.map((entry) => entry.option), rollupRetentionOption].some(
    (option) => context.options.number(option) > 0,
  );

/**
 * Runs the retention as the log cleanup run (so never beside an admin's delete); answers what it removed, or
 * null when another cleanup holds the run.
 */
export async function runLogRetention(
  context: AppContext,
  stopSignal?: AbortSignal,
  sliceOptions: SliceOptions & { now?: number } = {},
): Promise<RetentionResult | null> {
  let result: RetentionResult | null = null;
  let failure: unknown = null;
  const run = await startExclusiveRun(
    context,
    logCleanupRunName,
    'retention',
    async (reporter, signal) => {
      try {
        result = await applyLogRetention(context, { ...sliceOptions, signal, reporter });
      } catch (error) {
        failure = error;
      }
    },
    stopSignal,
  );
  if (!run) return null;
  await run.finished;
  if (failure) throw failure;
  return result;
}

/** A started admin delete; `deleted` settles with the count when it ends. */
export interface StartedLogCleanup {
  deleted: Promise<number>;
}

/**
 * Starts deleting every log written before the timestamp (one-api's DELETE /api/log) as a background run
 * with progress; null when a cleanup is already running. The run goes on if the caller stops waiting.
 */
export async function startLogCleanup(
  context: AppContext,
  timestamp: number,
  sliceOptions: SliceOptions = {},
): Promise<StartedLogCleanup | null> {
  let deleted = 0;
  let failure: unknown = null;
  const handle = context.logDatabase;
  const run = await startExclusiveRun(context, logCleanupRunName, 'manual', async (reporter, signal) => {
    try {
      const progress = progressOf(reporter);
      deleted = await deleteLogsBefore(handle.db, timestamp, {
        ...backgroundSlicePacing(handle.dialect),
        ...sliceOptions,
        reads: readOnlyDatabase(handle),
        signal,
        onSlice: progress.onSlice,
      });
    } catch (error) {
      failure = error;
    }
  });
  if (!run) return null;
  return {
    deleted: run.finished.then(() => {
      if (failure) throw failure;
      return deleted;
    }),
  };
}

/** The progress of the latest log cleanup (scope 'manual' or 'retention'); done and total count slices. */
export const logCleanupProgress = (context: AppContext): Promise<RunProgress> =>
  readRunProgress(context, logCleanupRunName);
