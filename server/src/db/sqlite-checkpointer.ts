import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** The WAL's bound: past it the server's connection checkpoints, and the WAL starts over (`boundWalOnWriter`). */
export const walLimitBytes = 64 * 1024 * 1024;

// Plain CommonJS, eval'd: the same text runs whether the server runs as TypeScript (tests) or built.
const workerSource = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Driver = require(workerData.driverPath);
const database = new Driver(workerData.file, { fileMustExist: true });
database.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
const walFile = workerData.file + '-wal';
const walBytes = () => { try { return statSync(walFile).size; } catch { return 0; } };
const checkpoint = () => {
  try { database.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { /* busy: the next round catches up */ }
};
let last = { at: Date.now(), walBytes: 0 };
const round = () => {
  const now = walBytes();
  if (now < last.walBytes) last.walBytes = now; // the WAL started over
  if (Date.now() - last.at < workerData.intervalMs && now - last.walBytes < workerData.walStepBytes) return;
  checkpoint();
  last = { at: Date.now(), walBytes: walBytes() };
};
const timer = setInterval(round, workerData.pollMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint();
  database.close();
  parentPort.close();
});
`;

export interface CheckpointerOptions {
  /** How often a PASSIVE checkpoint runs. */
  intervalMs?: number;
  /** How often the WAL file's size is looked at. */
  pollMs?: number;
  /** The bound the server's connection keeps (`boundWalOnWriter`): this thread copies ahead of it. */
  walLimitBytes?: number;
}

/**
 * SQLite's WAL checkpoints, in a thread of their own. By default the connection whose commit pushes the WAL
 * past 1,000 pages copies them back into the database file then and there: on the server's connection that is
 * the event loop, for tens of milliseconds while a retention run's deletes fill the WAL (+14 ms on the relay's
 * p99 at a million logs, +2.9 ms with the checkpoints moved away). This thread runs a PASSIVE checkpoint every
 * `intervalMs`, and sooner whenever the WAL has grown by `walLimitBytes / 16` since the last: a PASSIVE one never
 * blocks a writer or a reader. It never takes the write lock (a RESTART or TRUNCATE checkpoint would): a
 * transaction of the server's that reads before it writes gets SQLITE_BUSY at once, without its busy wait, when
 * another connection holds that lock. Under continuous writes a PASSIVE checkpoint from here never catches up
 * with the last commit, so the WAL would never start over; the server's connection closes the gap
 * (`boundWalOnWriter`). Should the thread fail, the server's connection checkpoints again by itself
 * (`onFailure`).
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private exited = false;

  constructor(
    file: string,
    busyTimeoutMs: number,
    onFailure: (error: Error) => void,
    { intervalMs = 1000, pollMs = 100, walLimitBytes: limit = walLimitBytes }: CheckpointerOptions = {},
  ) {
    const workerData = {
      driverPath: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      busyTimeoutMs,
      intervalMs,
      pollMs,
      walStepBytes: limit / 16,
    };
    this.worker = new Worker(workerSource, { eval: true, workerData });
    this.worker.unref(); // it never keeps the process alive
    this.worker.on('error', onFailure);
    this.worker.once('exit', () => (this.exited = true));
  }

  /** A last checkpoint, then the thread ends (terminated if it does not within 5 s). */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = once(this.worker, 'exit');
    this.worker.postMessage('close');
    const timer = setTimeout(() => void this.worker.terminate(), 5000);
    await exit;
    clearTimeout(timer);
  }
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
