import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { dropIndexIfExists, ensureIndex } from '../schema-helpers.js';

// Issue 28: every index on logs costs each consume log insert one more B-tree write, so only those a query the
// code makes uses stay (log-indexes.test.ts checks each against its query's plan). one-api's
// index_username_model_name (model_name, username) was used by one query alone, the admin list filtered by both
// a model and a user name, which the (model_name, id) or the username index serves in id order as well: at 1M
// logs on SQLite that page took 1.4 ms with it and 1.1 ms without (0.4 ms both for a rare pair). ensureLogTable
// no longer creates it, and drops it from a separate LOG_SQL_DSN database at its start.
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await dropIndexIfExists(db, dialect, 'logs', 'index_username_model_name');
}

export async function down(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureIndex(db, dialect, 'logs', 'index_username_model_name', ['model_name', 'username']);
}
