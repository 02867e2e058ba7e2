import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureTable } from '../schema-helpers.js';

// new-api's `other` column: JSON text, here a consume log's receipt (issue 19, decision 0026). Nullable TEXT
// without a default, so adding it changes only the table's definition on all three engines (SQLite, PostgreSQL
// 11+, MySQL 8 and MariaDB 10.3 instantly): no rewrite of a log table of millions of rows.
export async function ensureLogOtherColumn(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'logs', [['other', 'text']]);
}

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureLogOtherColumn(db, dialect);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('logs').dropColumn('other').execute();
}
