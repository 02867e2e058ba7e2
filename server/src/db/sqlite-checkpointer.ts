import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** The WAL's bound: past it the checkpoint thread copies the WAL back and cuts the file to zero bytes. */
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
const checkpoint = (mode) => {
  try { database.pragma('wal_checkpoint(' + mode + ')'); } catch (error) { /* busy: the next round catches up */ }
};
let lastPassive = Date.now();
const round = () => {
  if (walBytes() > workerData.walLimitBytes) {
    // Most frames are copied first without holding anyone back; the truncating checkpoint then holds the
    // server's writes only while it copies the few frames committed meanwhile. Busy: the next round retries.
    checkpoint('PASSIVE');
    checkpoint('TRUNCATE');
    lastPassive = Date.now();
  } else if (Date.now() - lastPassive >= workerData.intervalMs) {
    checkpoint('PASSIVE');
    lastPassive = Date.now();
  }
};
const timer = setInterval(round, workerData.pollMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint('PASSIVE');
  database.close();
  parentPort.close();
});
`;

export interface CheckpointerOptions {
  /** How often a PASSIVE checkpoint runs. */
  intervalMs?: number;
  /** How often the WAL file's size is looked at. */
  pollMs?: number;
  walLimitBytes?: number;
}

/**
 * SQLite's WAL checkpoints, in a thread of their own. By default the connection whose commit pushes the WAL
 * past 1,000 pages copies them back into the database file then and there: on the server's connection that is
 * the event loop, for tens of milliseconds while a retention run's deletes fill the WAL (+14 ms on the relay's
 * p99 at a million logs, +2.9 ms with the checkpoints moved away). The server's connection leaves checkpoints
 * to this thread (`boundWalOnWriter`), which runs a PASSIVE one every `intervalMs`: it never blocks a writer or
 * a reader. Under continuous writes a PASSIVE checkpoint never catches up with the last commit, so the WAL is
 * never started over and grows without end (about 11 GB in 10 minutes at 7,000 calls/s): once the file passes
 * `walLimitBytes`, the thread checkpoints with TRUNCATE, which waits for a gap between commits, copies the rest
 * and cuts the file to zero. The thread's busy wait is short (at most 100 ms): the server's writes wait behind
 * it in a busy handler that blocks the event loop. Should the thread fail, the server's connection
 * checkpoints again by itself (`onFailure`).
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
      busyTimeoutMs: Math.min(busyTimeoutMs, 100),
      intervalMs,
      pollMs,
      walLimitBytes: limit,
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

/** The WAL frames (a page and its 24-byte header each) at which the writer checkpoints by itself. */
const walBackstopPages = (limit: number, pageSize: number) => Math.ceil((2 * limit) / (pageSize + 24));

/**
 * The writing connection's share of the bound. When a checkpoint leaves the WAL fully copied, the next commit
 * starts it over and `journal_size_limit` cuts the file back to the limit. Its own checkpoints on commit (on the
 * event loop) come only as a backstop, at twice the limit, should the thread fall behind.
 */
export function boundWalOnWriter(sqlite: SQLite.Database, limit = walLimitBytes): void {
  const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
  sqlite.pragma(`journal_size_limit = ${limit}`);
  sqlite.pragma(`wal_autocheckpoint = ${walBackstopPages(limit, pageSize)}`);
}
