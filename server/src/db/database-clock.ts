import { MysqlAdapter, PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Db } from './tables.js';

/**
 * The database's own time in Unix seconds, for what several nodes compare (leases, the reservations they
 * cover): one clock for all of them, however far a node's own clock has drifted.
 */
export function databaseSeconds(db: Db): RawBuilder<number> {
  const { adapter } = db.getExecutor();
  if (adapter instanceof PostgresAdapter) return sql<number>`cast(floor(extract(epoch from now())) as bigint)`;
  if (adapter instanceof MysqlAdapter) return sql<number>`unix_timestamp()`;
  return sql<number>`unixepoch()`;
}
