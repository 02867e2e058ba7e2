import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { dropIndexIfExists, ensureIndex } from '../schema-helpers.js';

// one-api's single-column indexes on user_id and model_name are prefixes of idx_logs_user_type_id and
// index_username_model_name, which serve the same queries: each consume log paid for two more index writes.
export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await dropIndexIfExists(db, dialect, 'logs', 'idx_logs_user_id');
  await dropIndexIfExists(db, dialect, 'logs', 'idx_logs_model_name');
}

export async function down(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureIndex(db, dialect, 'logs', 'idx_logs_user_id', ['user_id']);
  await ensureIndex(db, dialect, 'logs', 'idx_logs_model_name', ['model_name']);
}
