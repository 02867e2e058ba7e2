import type SQLite from 'better-sqlite3';
import type { CheckpointSchedule } from './sqlite-thread.worker.js';

/** The WAL's bound: past it the server's connection checkpoints, and the WAL starts over (`boundWalOnWriter`). */
export const walLimitBytes = 64 * 1024 * 1024;

export interface CheckpointOptions {
  /** How often a PASSIVE checkpoint runs. */
  intervalMs?: number;
  /** How often the WAL file's size is looked at. */
  pollMs?: number;
  /** The bound the server's connection keeps (`boundWalOnWriter`): the thread copies ahead of it. */
  walLimitBytes?: number;
}

/**
 * When SQLite's WAL checkpoints run, in the SQLite thread (sqlite-thread.worker.ts) rather than on the server's
 * connection. By default the connection whose commit pushes the WAL past 1,000 pages copies them back into the
 * database file then and there: on the server's connection that is the event loop, for tens of milliseconds while
 * a retention run's deletes fill the WAL (+14 ms on the relay's p99 at a million logs, +2.9 ms with the
 * checkpoints moved away). The thread runs a PASSIVE checkpoint every `intervalMs`, and sooner whenever the WAL
 * has grown by `walLimitBytes / 16` since the last: a PASSIVE one never blocks a writer or a reader. It never
 * takes the write lock (a RESTART or TRUNCATE checkpoint would): a transaction of the server's that reads before
 * it writes gets SQLITE_BUSY at once, without its busy wait, when another connection holds that lock. Under
 * continuous writes a PASSIVE checkpoint from there never catches up with the last commit, so the WAL would never
 * start over; the server's connection closes the gap (`boundWalOnWriter`). Should the thread fail, the server's
 * connection checkpoints again by itself.
 */
export function checkpointSchedule({
  intervalMs = 1000,
  pollMs = 100,
  walLimitBytes: limit = walLimitBytes,
}: CheckpointOptions = {}): CheckpointSchedule {
  return { intervalMs, pollMs, walStepBytes: limit / 16 };
}

/**
 * The WAL's bound, kept by the server's connection, the only writer: when a commit leaves more than `limit`
 * bytes of frames in the WAL, the connection checkpoints (PASSIVE, on the event loop) right after it. No other
 * writer can commit meanwhile, so the checkpoint copies every frame (unless a read still needs an old one), and
 * the next commit starts the WAL over. The thread has copied all but the last few megabytes by then. The file is
 * cut back to that commit's frames (`journal_size_limit = 0`), so its size tells the thread what the WAL holds.
 */
export function boundWalOnWriter(sqlite: SQLite.Database, limit = walLimitBytes): void {
  const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
  sqlite.pragma('journal_size_limit = 0');
  // Each frame is a page and its 24-byte header.
  sqlite.pragma(`wal_autocheckpoint = ${Math.ceil(limit / (pageSize + 24))}`);
}
