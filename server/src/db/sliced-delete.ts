import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How far a sliced delete got, after each slice. */
export interface SliceProgress {
  /** Rows deleted so far. */
  deleted: number;
  /** Slices run so far. */
  slices: number;
  /** Slices still to run at the current width (an estimate: the width adapts). */
  remainingSlices: number;
}

export interface SliceOptions {
  /** Width of the first slice, in units of the sliced column (ids, or seconds for a time column). */
  sliceWidth?: number;
  /**
   * Each slice aims at this many milliseconds: the width grows or shrinks after each one. 0 keeps the width
   * fixed (tests use it to count slices).
   */
  targetSliceMs?: number;
  /** Bounds of the adapted width. */
  minSliceWidth?: number;
  maxSliceWidth?: number;
  /**
   * After each slice, rest this many times its duration before the next (0: only yield one turn). On SQLite a
   * slice holds the event loop, and a relay call spans several turns of it, each of which a slice can delay:
   * resting as long as the slice worked keeps most turns free.
   */
  restRatio?: number;
  /** Stops between two slices; what was deleted stays deleted. */
  signal?: AbortSignal;
  onSlice?: (progress: SliceProgress) => void | Promise<void>;
}

/** Defaults for id slices of the logs table: about 10 ms of SQLite work per slice (some 1,500 logs on the 2-core machine). */
export const defaultSliceOptions = {
  sliceWidth: 2000,
  targetSliceMs: 10,
  minSliceWidth: 50,
  maxSliceWidth: 100_000,
} as const;

/**
 * How background deletes are paced on each engine. On SQLite a slice holds the event loop, so slices are kept to
 * about 1 ms and each is followed by a rest twice as long: a relay call spans several turns of the loop, each of
 * which a slice can delay (at 10M logs, 3 ms slices cost the relay's p99 +6.5 ms, 1.5 ms slices with an equal
 * rest +3 to +6.4 ms, 1 ms with a double rest +1.4 ms; the cleanup takes about twice as long). On PostgreSQL and
 * MySQL the database's own processes do the work, on the same cores as the relay: a rest as long as each slice
 * lets the relay have them.
 */
export function backgroundSlicePacing(dialect: string): SliceOptions {
  return dialect === 'sqlite' ? { targetSliceMs: 1, restRatio: 2 } : { restRatio: 1 };
}

/**
 * Deletes the rows whose sliced column lies in [first, last], one slice of consecutive values at a time, and
 * lets the event loop run between two slices. On SQLite a statement blocks the whole process while it runs
 * (better-sqlite3 is synchronous), so one DELETE over millions of rows stopped the relay for as long as it
 * took; a slice is a short statement over a primary-key or indexed range, and requests are served between
 * slices. On PostgreSQL and MySQL short statements also mean short row locks and small undo logs.
 * `deleteSlice(from, to)` deletes the rows of one inclusive range and answers how many went.
 */
export async function deleteInSlices(
  first: number,
  last: number,
  deleteSlice: (from: number, to: number) => Promise<number>,
  options: SliceOptions = {},
): Promise<number> {
  const target = options.targetSliceMs ?? defaultSliceOptions.targetSliceMs;
  const minWidth = Math.max(1, options.minSliceWidth ?? defaultSliceOptions.minSliceWidth);
  const maxWidth = Math.max(minWidth, options.maxSliceWidth ?? defaultSliceOptions.maxSliceWidth);
  let width = Math.max(1, Math.floor(options.sliceWidth ?? defaultSliceOptions.sliceWidth));
  let deleted = 0;
  let slices = 0;
  for (let from = first; from <= last;) {
    if (options.signal?.aborted) break;
    const to = Math.min(last, from + width - 1);
    const started = performance.now();
    deleted += await deleteSlice(from, to);
    const elapsedMs = performance.now() - started;
    slices += 1;
    from = to + 1;
    if (target > 0) width = adaptWidth(width, elapsedMs, target, minWidth, maxWidth);
    await options.onSlice?.({ deleted, slices, remainingSlices: Math.ceil(Math.max(0, last - from + 1) / width) });
    // Requests waiting on the loop (the relay, /api/status) run here.
    if (options.restRatio) await new Promise((resolve) => setTimeout(resolve, elapsedMs * options.restRatio!));
    else await nextTurn();
  }
  return deleted;
}

/** Moves the width toward the target time, at most doubling or halving (quartering when far over) per slice. */
function adaptWidth(width: number, elapsedMs: number, targetMs: number, minWidth: number, maxWidth: number): number {
  const ratio = targetMs / Math.max(elapsedMs, 0.05);
  const factor = Math.min(2, Math.max(0.25, ratio));
  return Math.round(Math.min(maxWidth, Math.max(minWidth, width * factor)));
}
