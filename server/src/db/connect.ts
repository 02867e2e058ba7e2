import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionBuilder,
  type TransactionSettings,
} from 'kysely';
import type { Logger } from 'pino';
import { ConnectionHealth, isSessionEnded, wasNeverSent } from './connection-health.js';
import { boundWalOnWriter, checkpointSchedule } from './sqlite-checkpointer.js';
import { SqliteThread } from './sqlite-thread.js';
import type { Database } from './tables.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** One open database: the query builder, which engine it is, and how to close it. */
export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** The in-process SQLite database itself, for the relay's synchronous write path (SQLite only). */
  readonly sqlite?: SQLite.Database;
  /** The SQLite file's thread: heavy reads off the event loop, and the WAL's checkpoints (SQLite only). */
  readonly sqliteThread?: SqliteThread;
  /** Whether the server answers, from the pool's events (PostgreSQL and MySQL; SQLite has no server). */
  readonly health?: ConnectionHealth;
  /** The pool's connections now, for /metrics (PostgreSQL and MySQL; SQLite has no pool). */
  readonly poolStats?: () => PoolStats;
  close(): Promise<void>;
}

/** Connections open and idle in a pool, and the queries waiting for one. */
export interface PoolStats {
  open: number;
  idle: number;
  waiting: number;
}

export interface OpenDatabaseOptions {
  sqlitePath: string;
  sqliteBusyTimeoutMs: number;
  maxConnections: number;
  /** Where lost sessions are reported (at warn). */
  logger?: Logger;
}

/** A new connection that gets no answer within this fails (the pool's default waits forever). */
const connectTimeoutMs = 10_000;

/**
 * Opens a query builder over a pool, with the pool's health and a probe that asks the server for `select 1`;
 * closing stops the probe, then the pool.
 */
function withHealth(
  dialect: 'postgres' | 'mysql',
  db: Kysely<Database>,
  health: ConnectionHealth,
  poolStats: () => PoolStats,
): DatabaseHandle {
  health.setProbe(() => sql`select 1`.execute(db));
  return {
    db,
    dialect,
    health,
    poolStats,
    close: async () => {
      health.close();
      await db.destroy();
    },
  };
}

/**
 * Attempts after the first on a fresh connection: the pool may hand out each of its idle connections, all
 * dead after the server ended every session, before it opens a new one.
 */
const freshConnectionRetries = (maxConnections: number) => maxConnections + 2;

/**
 * PostgreSQL and MySQL: a transaction whose session ends before its COMMIT (pg_terminate_backend, KILL, a
 * restart, a failover) is run again from its start on a fresh connection: the server rolled it back with the
 * session, and the pool has dropped the dead connection. A failure during COMMIT itself is not retried, since
 * the transaction may have committed (the settlement writer's marker rows settle that case).
 */
class ReconnectingKysely extends Kysely<Database> {
  constructor(
    dialect: Dialect,
    private readonly retries: number,
  ) {
    super({ dialect });
  }

  override transaction(): TransactionBuilder<Database> {
    const builder = super.transaction();
    const execute = builder.execute.bind(builder);
    builder.execute = async (callback) => {
      for (let attempt = 0; ; attempt++) {
        let committing = false;
        try {
          return await execute(async (transaction) => {
            const result = await callback(transaction);
            committing = true;
            return result;
          });
        } catch (error) {
          if (committing || attempt >= this.retries || !isSessionEnded(error)) throw error;
        }
      }
    };
    return builder;
  }
}

/**
 * A statement outside a transaction whose session ended is run again on a fresh connection when that cannot
 * apply it twice: a read, or any statement the driver refused before sending it (its connection was known to
 * be dead). Inside a transaction the transaction as a whole is retried (ReconnectingKysely).
 */
class ReconnectingDriver implements Driver {
  private readonly inTransaction = new WeakSet<DatabaseConnection>();
  private readonly watched = new WeakSet<DatabaseConnection>();

  constructor(
    private readonly driver: Driver,
    private readonly retries: number,
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.driver.acquireConnection();
    if (!this.watched.has(connection)) {
      this.watched.add(connection);
      const executeQuery = connection.executeQuery.bind(connection);
      connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        try {
          return await executeQuery<R>(query);
        } catch (error) {
          const repeatable = query.query.kind === 'SelectQueryNode' || wasNeverSent(error);
          if (this.inTransaction.has(connection) || !repeatable || !isSessionEnded(error)) throw error;
          return this.onFreshConnection<R>(query);
        }
      };
    }
    return connection;
  }

  private async onFreshConnection<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    for (let attempt = 1; ; attempt++) {
      const connection = await this.driver.acquireConnection();
      try {
        return await connection.executeQuery<R>(query);
      } catch (error) {
        if (attempt >= this.retries || !isSessionEnded(error)) throw error;
      } finally {
        await this.driver.releaseConnection(connection);
      }
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    this.inTransaction.add(connection);
    await this.driver.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.driver.commitTransaction(connection);
    } finally {
      this.inTransaction.delete(connection);
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.driver.rollbackTransaction(connection);
    } finally {
      this.inTransaction.delete(connection);
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.inTransaction.delete(connection);
    return this.driver.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }
}

const reconnecting = (dialect: Dialect, retries: number): Dialect => ({
  createAdapter: () => dialect.createAdapter(),
  createDriver: () => new ReconnectingDriver(dialect.createDriver(), retries),
  createIntrospector: (db) => dialect.createIntrospector(db),
  createQueryCompiler: () => dialect.createQueryCompiler(),
});

/**
 * Opens SQL_DSN when set (postgres:// or mysql://, or one-api's `user:pass@tcp(host:port)/db`), else SQLite.
 * The PostgreSQL and MySQL drivers load only when used: the default SQLite process stays smaller.
 */
export async function openDatabase(dsn: string, options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (/^postgres(ql)?:\/\//.test(dsn)) {
    const { default: pg } = await import('pg');
    // node-postgres returns int8 and numeric as strings; every such column here is a quota or a count that
    // stays far below 2^53, so numbers are the honest type.
    pg.types.setTypeParser(20, (value) => Number(value));
    pg.types.setTypeParser(1700, (value) => Number(value));
    const pool = new pg.Pool({
      connectionString: dsn,
      max: options.maxConnections,
      connectionTimeoutMillis: connectTimeoutMs,
      // TCP keepalive: a server that vanished without closing (failover, a cut network) is noticed.
      keepAlive: true,
    });
    const health = new ConnectionHealth(options.logger, 'postgres');
    // An idle client whose session ends (restart, failover, idle timeout, pg_terminate_backend) makes the
    // pool emit `error`: without a listener that kills the process. The pool has dropped the client already
    // and opens a new one on the next query.
    pool.on('error', (error) => health.lost(error));
    pool.on('connect', (client) => {
      health.answered();
      // A client checked out between two queries (inside a transaction) has no pool listener: its `error`
      // would be unhandled. The query that was running, if any, is rejected to its caller by the driver.
      client.on('error', (error) => health.lost(error));
    });
    const connect = pool.connect.bind(pool);
    // Kysely asks for clients this way (no callback); a connection that cannot open marks the database lost.
    pool.connect = ((...args: Parameters<typeof pool.connect>) => {
      if (args.length > 0) return connect(...args);
      return connect().catch((error: unknown) => {
        health.lost(error);
        throw error;
      });
    }) as typeof pool.connect;
    const poolStats = () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    const retries = freshConnectionRetries(options.maxConnections);
    const dialect = reconnecting(new PostgresDialect({ pool }), retries);
    return withHealth('postgres', new ReconnectingKysely(dialect, retries), health, poolStats);
  }
  if (dsn !== '') {
    const { createPool: createMysqlPool } = await import('mysql2');
    const pool = createMysqlPool({
      ...mysqlConnectionOptions(dsn),
      connectionLimit: options.maxConnections,
      supportBigNumbers: true,
      timezone: 'Z',
      charset: 'utf8mb4',
      connectTimeout: connectTimeoutMs,
      enableKeepAlive: true,
    });
    const health = new ConnectionHealth(options.logger, 'mysql');
    // mysql2 drops a pooled connection whose session ends (its own `error`/`end` listeners); this listener
    // only reports it, and keeps a second error on the same connection from going unhandled.
    pool.on('connection', (connection) => {
      health.answered();
      connection.on('error', (error) => health.lost(error));
    });
    const getConnection = pool.getConnection.bind(pool);
    pool.getConnection = ((callback: Parameters<typeof pool.getConnection>[0]) =>
      getConnection((error, connection) => {
        if (error) health.lost(error);
        callback(error, connection);
      })) as typeof pool.getConnection;
    const retries = freshConnectionRetries(options.maxConnections);
    const dialect = reconnecting(new MysqlDialect({ pool }), retries);
    return withHealth('mysql', new ReconnectingKysely(dialect, retries), health, () => mysqlPoolStats(pool));
  }
  const file = resolve(options.sqlitePath);
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${options.sqliteBusyTimeoutMs}`);
  sqlite.pragma('foreign_keys = OFF');
  // Checkpoints run in the file's thread; this connection checkpoints only when a commit takes the WAL past its
  // bound (sqlite-checkpointer.ts).
  boundWalOnWriter(sqlite);
  const sqliteThread = new SqliteThread(file, options.sqliteBusyTimeoutMs, {
    checkpoints: checkpointSchedule(),
    onFailure: (error) => {
      options.logger?.warn({ err: error }, 'the SQLite thread failed: checkpoints run on commit again');
      sqlite.pragma('wal_autocheckpoint = 1000');
    },
  });
  cachePreparedStatements(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const close = async () => {
    await sqliteThread.close();
    await db.destroy();
  };
  return { db, dialect: 'sqlite', sqlite, sqliteThread, close };
}

/**
 * mysql2 keeps its pool's queues in underscored fields that its typings leave out; read defensively, so a
 * driver that renames them reports zeros rather than failing a scrape.
 */
function mysqlPoolStats(pool: object): PoolStats {
  const queues = pool as Partial<
    Record<'_allConnections' | '_freeConnections' | '_connectionQueue', { length?: number }>
  >;
  const length = (queue: { length?: number } | undefined) => (typeof queue?.length === 'number' ? queue.length : 0);
  return {
    open: length(queues._allConnections),
    idle: length(queues._freeConnections),
    waiting: length(queues._connectionQueue),
  };
}

/** Accepts a mysql:// URL or the Go driver's DSN that one-api users already have in their environment. */
export function mysqlConnectionOptions(dsn: string) {
  if (dsn.startsWith('mysql://')) {
    const url = new URL(dsn);
    return {
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.replace(/^\//, ''),
    };
  }
  const match =
    /^(?<user>[^:@]*)(?::(?<password>[^@]*))?@(?:tcp\((?<host>[^:)]+)(?::(?<port>\d+))?\))?\/(?<database>[^?]+)/.exec(
      dsn,
    );
  if (!match?.groups) throw new Error('SQL_DSN is neither postgres://, mysql:// nor user:pass@tcp(host:port)/db');
  const { user, password, host, port, database } = match.groups;
  return { host: host ?? '127.0.0.1', port: Number(port ?? 3306), user, password: password ?? '', database };
}

/**
 * Kysely prepares every query anew; on the relay's write path that costs as much as running it. SQLite
 * statements are reusable (and re-prepared by SQLite itself after a schema change), and better-sqlite3 runs
 * them synchronously, so one cached statement per SQL text is safe, as long as no caller changes a cached
 * statement's mode (pluck, raw, expand): that would reach every other query of the same text.
 */
function cachePreparedStatements(sqlite: SQLite.Database, capacity = 500): void {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}

/**
 * Gives SQLite's query planner fresh statistics, sampled (`analysis_limit`), so it takes milliseconds even at
 * millions of rows. Without them the planner takes any equality on an indexed column for selective: `type = 2`,
 * which nearly every log matches, sent the log totals' edge query down the (type, id) index instead of the
 * created_at one (a second at 10 million rows). Run at start and hourly, as the tables grow.
 */
export function refreshPlannerStatistics(sqlite: SQLite.Database): void {
  sqlite.pragma('analysis_limit = 1000');
  sqlite.exec('analyze');
}
