import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Plain CommonJS, eval'd: the same text runs whether the server runs as TypeScript (tests) or built.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Driver = require(workerData.driverPath);
const database = new Driver(workerData.file, { fileMustExist: true });
database.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
const checkpoint = () => {
  try { database.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { /* busy: the next round catches up */ }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  checkpoint();
  database.close();
  parentPort.close();
});
`;

/**
 * SQLite's WAL checkpoints, in a thread of their own. By default the connection whose commit pushes the WAL
 * past 1,000 pages copies them back into the database file then and there: on the server's connection that is
 * the event loop, for tens of milliseconds while a retention run's deletes fill the WAL (+14 ms on the relay's
 * p99 at a million logs, +2.9 ms with the checkpoints moved away). The server's connection turns automatic
 * checkpoints off and this thread runs a PASSIVE one every `intervalMs`, which never blocks a writer or a
 * reader. Should the thread fail, the server's connection checkpoints again by itself (`onFailure`).
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private exited = false;

  constructor(file: string, busyTimeoutMs: number, onFailure: (error: Error) => void, intervalMs = 1000) {
    const workerData = {
      driverPath: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      busyTimeoutMs,
      intervalMs,
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
