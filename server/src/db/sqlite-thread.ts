import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { DatabaseHandle } from './connect.js';
import type { Database } from './tables.js';
import {
  closeMessage,
  sqliteThreadWorker,
  type CheckpointSchedule,
  type ReaderRequest,
  type ReaderResponse,
  type SqliteThreadData,
} from './sqlite-thread.worker.js';

const workerSource = `(${sqliteThreadWorker.toString()})(require);`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

export interface SqliteThreadOptions {
  /** The WAL's checkpoints, run in the same thread (sqlite-checkpointer.ts). */
  checkpoints: CheckpointSchedule;
  /** The thread failed: its reads are refused, and the server's connection must checkpoint by itself again. */
  onFailure?: (error: Error) => void;
}

/**
 * The SQLite thread of one database file: a worker with its own read-only better-sqlite3 connection, and the WAL's
 * checkpoints. better-sqlite3 runs on the calling thread, so a heavy read (a filtered log page, a stat over
 * millions of rows) on the server's connection stops the relay and every other request until it ends; here it
 * runs beside them. WAL lets the thread read while the server writes, and each query sees what was committed
 * when it started. Queries run one at a time, in the order sent, between checkpoints.
 */
export class SqliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private exited = false;

  constructor(file: string, busyTimeoutMs = 5000, { checkpoints, onFailure }: SqliteThreadOptions) {
    const workerData: SqliteThreadData = {
      driverPath: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      busyTimeoutMs,
      checkpoints,
    };
    this.worker = new Worker(workerSource, { eval: true, workerData });
    this.worker.unref(); // an idle thread never keeps the process alive
    this.worker.on('message', (response: ReaderResponse) => {
      const waiting = this.pending.get(response.id);
      if (!waiting) return;
      this.pending.delete(response.id);
      if ('rows' in response) waiting.resolve(response.rows);
      else waiting.reject(Object.assign(new Error(response.error.message), { code: response.error.code }));
    });
    const failAll = (error: Error) => {
      this.closed = true;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', (error) => {
      failAll(error);
      onFailure?.(error);
    });
    this.worker.once('exit', () => {
      this.exited = true;
      failAll(new Error('the SQLite thread stopped'));
    });
  }

  /** Runs one compiled query in the thread; answers its rows. */
  all<Row>(query: { sql: string; parameters: readonly unknown[] }): Promise<Row[]> {
    if (this.closed) return Promise.reject(new Error('the SQLite thread is closed'));
    const id = this.nextId++;
    const request: ReaderRequest = { id, sql: query.sql, parameters: query.parameters };
    return new Promise<Row[]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      if (this.pending.size === 1) this.worker.ref(); // keep answering while a query is out
      this.worker.postMessage(request);
    }).finally(() => {
      if (this.pending.size === 0 && !this.closed) this.worker.unref();
    });
  }

  /**
   * Answers the queries already sent, runs a last checkpoint, then the thread ends (terminated if it does not
   * within 5 s); later queries are refused.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.exited) return;
    const exit = once(this.worker, 'exit');
    this.worker.postMessage(closeMessage);
    const timer = setTimeout(() => void this.worker.terminate(), 5000);
    await exit;
    clearTimeout(timer);
  }
}

/** A Kysely driver whose every query goes to the SQLite thread (read-only, no transactions). */
class ReaderDriver implements Driver {
  constructor(private readonly thread: SqliteThread) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const thread = this.thread;
    return {
      async executeQuery<Row>(compiled: CompiledQuery): Promise<QueryResult<Row>> {
        return { rows: await thread.all<Row>(compiled) };
      },
      // eslint-disable-next-line require-yield
      async *streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
        throw new Error('the SQLite thread does not stream; page with a keyset instead');
      },
    };
  }
  async beginTransaction(): Promise<void> {
    throw new Error('the SQLite thread is read-only: no transactions');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  // The thread belongs to the database handle, which closes it.
  async destroy(): Promise<void> {}
}

const readerDialect = (thread: SqliteThread): Dialect => ({
  createAdapter: () => new SqliteAdapter(),
  createDriver: () => new ReaderDriver(thread),
  createIntrospector: (db) => new SqliteIntrospector(db),
  createQueryCompiler: () => new SqliteQueryCompiler(),
});

const readerDatabases = new WeakMap<SqliteThread, Kysely<Database>>();

/**
 * The query builder for heavy reads of this database: on SQLite one that runs in the database's thread
 * (read-only: a write through it fails), elsewhere the handle's own (the PostgreSQL and MySQL drivers never
 * block the event loop).
 */
export function readOnlyDatabase(handle: DatabaseHandle): Kysely<Database> {
  const thread = handle.sqliteThread;
  if (!thread) return handle.db;
  let db = readerDatabases.get(thread);
  if (!db) readerDatabases.set(thread, (db = new Kysely<Database>({ dialect: readerDialect(thread) })));
  return db;
}
