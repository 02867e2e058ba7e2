import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './tables.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** One open database: the query builder, which engine it is, and how to close it. */
export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /** The in-process SQLite database itself, for the relay's synchronous write path (SQLite only). */
  readonly sqlite?: SQLite.Database;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  sqlitePath: string;
  sqliteBusyTimeoutMs: number;
  maxConnections: number;
}

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
    const pool = new pg.Pool({ connectionString: dsn, max: options.maxConnections });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (dsn !== '') {
    const { createPool: createMysqlPool } = await import('mysql2');
    const pool = createMysqlPool({
      ...mysqlConnectionOptions(dsn),
      connectionLimit: options.maxConnections,
      supportBigNumbers: true,
      timezone: 'Z',
      charset: 'utf8mb4',
    });
    const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
    return { db, dialect: 'mysql', close: () => db.destroy() };
  }
  const file = resolve(options.sqlitePath);
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${options.sqliteBusyTimeoutMs}`);
  sqlite.pragma('foreign_keys = OFF');
  cachePreparedStatements(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
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
 * them synchronously, so one cached statement per SQL text is safe.
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
