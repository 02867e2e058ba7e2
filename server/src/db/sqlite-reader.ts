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
import type { AppContext } from '../context.js';
import type { DatabaseHandle } from './connect.js';
import type { Database } from './tables.js';
import {
  sqliteReaderWorker,
  type ReaderRequest,
  type ReaderResponse,
  type ReaderWorkerData,
} from './sqlite-reader.worker.js';

const workerSource = `(${sqliteReaderWorker.toString()})(require);`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/**
 * One worker thread with its own read-only better-sqlite3 connection to the server's SQLite file. better-sqlite3
 * runs on the calling thread, so a heavy read (a filtered log page, a stat over millions of rows) on the
 * server's connection stops the relay and every other request until it ends; here it runs beside them. WAL
 * lets the thread read while the server writes, and each query sees what was committed when it started.
 * Queries run one at a time, in the order sent.
 */
export class SqliteReader {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(file: string, busyTimeoutMs = 5000) {
    const workerData: ReaderWorkerData = {
      driverPath: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      busyTimeoutMs,
    };
    this.worker = new Worker(workerSource, { eval: true, workerData });
    this.worker.unref(); // an idle reader never keeps the process alive
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
    this.worker.on('error', failAll);
    this.worker.on('exit', () => failAll(new Error('the SQLite reader thread stopped')));
  }

  /** Runs one compiled query in the reader thread; answers its rows. */
  all<Row>(query: { sql: string; parameters: readonly unknown[] }): Promise<Row[]> {
    if (this.closed) return Promise.reject(new Error('the SQLite reader is closed'));
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

  /** Stops the thread; queries still out are rejected. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker.terminate();
  }
}

/** A Kysely driver whose every query goes to the reader thread (read-only, no transactions). */
class ReaderDriver implements Driver {
  constructor(private readonly reader: SqliteReader) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const reader = this.reader;
    return {
      async executeQuery<Row>(compiled: CompiledQuery): Promise<QueryResult<Row>> {
        return { rows: await reader.all<Row>(compiled) };
      },
      // eslint-disable-next-line require-yield
      async *streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
        throw new Error('the SQLite reader does not stream; page with a keyset instead');
      },
    };
  }
  async beginTransaction(): Promise<void> {
    throw new Error('the SQLite reader is read-only: no transactions');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {
    await this.reader.close();
  }
}

const readerDialect = (reader: SqliteReader): Dialect => ({
  createAdapter: () => new SqliteAdapter(),
  createDriver: () => new ReaderDriver(reader),
  createIntrospector: (db) => new SqliteIntrospector(db),
  createQueryCompiler: () => new SqliteQueryCompiler(),
});

interface OpenReader {
  reader: SqliteReader;
  db: Kysely<Database>;
}

const readersByContext = new WeakMap<AppContext, Map<DatabaseHandle, OpenReader>>();

/** The file behind a SQLite handle, or null for a database that another connection cannot open. */
function sharedFile(handle: DatabaseHandle): string | null {
  if (handle.dialect !== 'sqlite' || !handle.sqlite) return null;
  const file = handle.sqlite.name;
  return handle.sqlite.memory || file === '' || file === ':memory:' ? null : file;
}

function openReader(context: AppContext, handle: DatabaseHandle, file: string): OpenReader {
  let readers = readersByContext.get(context);
  if (!readers) {
    const created = new Map<DatabaseHandle, OpenReader>();
    readers = created;
    readersByContext.set(context, created);
    // Shutdown tasks run before the databases close.
    context.shutdownTasks.push(async () => {
      await Promise.allSettled([...created.values()].map((open) => open.reader.close()));
      created.clear();
    });
  }
  let open = readers.get(handle);
  if (!open) {
    const reader = new SqliteReader(file, context.config.SQLITE_BUSY_TIMEOUT);
    open = { reader, db: new Kysely<Database>({ dialect: readerDialect(reader) }) };
    readers.set(handle, open);
  }
  return open;
}

/**
 * The query builder for heavy reads of this database: on SQLite one that runs in the reader thread (read-only:
 * a write through it fails), elsewhere the handle's own (the PostgreSQL and MySQL drivers never block the
 * event loop).
 */
export function readOnlyDatabase(context: AppContext, handle: DatabaseHandle): Kysely<Database> {
  const file = sharedFile(handle);
  return file === null ? handle.db : openReader(context, handle, file).db;
}

/**
 * Runs one built query (anything with `compile()`, e.g. a Kysely select) off the event loop on SQLite and
 * answers its rows; on PostgreSQL and MySQL it runs on the handle's pool. For one-off heavy reads, such as an
 * export reading pages of rows.
 */
export async function readRows<Row>(
  context: AppContext,
  handle: DatabaseHandle,
  query: { compile(): CompiledQuery<Row> },
): Promise<Row[]> {
  const compiled = query.compile();
  const file = sharedFile(handle);
  if (file === null) return (await handle.db.executeQuery(compiled)).rows;
  return openReader(context, handle, file).reader.all<Row>(compiled);
}
