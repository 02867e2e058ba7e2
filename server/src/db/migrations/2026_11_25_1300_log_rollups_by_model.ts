import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureLogRollups } from './2026_11_25_1100_create_log_rollups.js';

// The per-model rollups and the rollups' filter indexes, for databases that took 1100 before they existed.
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureLogRollups(db, dialect);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('log_rollups_by_model').ifExists().execute();
}
