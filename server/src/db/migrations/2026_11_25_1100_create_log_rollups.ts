import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureIndex, ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Consume logs summed per hour × user × token × model × channel (decision 0018), written with the logs
// they sum. The log views read these instead of millions of rows.
const logRollups: ColumnSpec[] = [
  ['hour', 'bigint'],
  ['user_id', 'bigint'],
  ['username', 'string', ''],
  ['token_name', 'string', ''],
  ['model_name', 'string', ''],
  ['channel_id', 'bigint', 0],
  ['calls', 'bigint', 0],
  ['quota', 'bigint', 0],
  ['prompt_tokens', 'bigint', 0],
  ['completion_tokens', 'bigint', 0],
  ['elapsed_ms', 'bigint', 0],
];
const rollupKey = ['hour', 'user_id', 'username', 'token_name', 'model_name', 'channel_id'] as const;

// The same sums per hour × model × channel only: a few dozen rows an hour whatever the number of users and
// tokens, for the views that filter by neither (the admin's totals and chart).
const perUser = new Set(['user_id', 'username', 'token_name']);
const logRollupsByModel = logRollups.filter(([name]) => !perUser.has(name));

// Where the rollups stand: logs with an id at or above `boundary_id` were rolled up as they were written;
// those below are rolled up in the background from `cursor_id` down, and every hour from `frontier` on
// is complete (0 once everything is).
const logRollupState: ColumnSpec[] = [
  ['id', 'int'],
  ['boundary_id', 'bigint', 0],
  ['cursor_id', 'bigint', 0],
  ['frontier', 'bigint', 0],
];

/** The rollup tables, in the main database (a migration) or a separate LOG_SQL_DSN one (at every start). */
export async function ensureLogRollups(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'log_rollups', logRollups, rollupKey);
  await ensureIndex(db, dialect, 'log_rollups', 'idx_log_rollups_user_hour', ['user_id', 'hour']);
  await ensureIndex(db, dialect, 'log_rollups', 'idx_log_rollups_username_hour', ['username', 'hour']);
  await ensureIndex(db, dialect, 'log_rollups', 'idx_log_rollups_token_hour', ['token_name', 'hour']);
  await ensureTable(db, dialect, 'log_rollups_by_model', logRollupsByModel, ['hour', 'model_name', 'channel_id']);
  await ensureTable(db, dialect, 'log_rollup_state', logRollupState, ['id']);
  const state = await db.selectFrom('log_rollup_state').select('id').where('id', '=', 1).executeTakeFirst();
  if (state) return;
  // Logs already there (a migrated one-api install, a restore) are rolled up in the background.
  const last = await db
    .selectFrom('logs')
    .select([sql<number>`max(id)`.as('id'), sql<number>`max(created_at)`.as('created_at')])
    .executeTakeFirst();
  const boundary = Number(last?.id ?? 0) + 1;
  const frontier = boundary > 1 ? Number(last!.created_at) - (Number(last!.created_at) % 3600) + 7200 : 0;
  await db
    .insertInto('log_rollup_state')
    .values({ id: 1, boundary_id: boundary, cursor_id: boundary, frontier })
    .execute();
}

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureLogRollups(db, dialect);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('log_rollups').ifExists().execute();
  await db.schema.dropTable('log_rollups_by_model').ifExists().execute();
  await db.schema.dropTable('log_rollup_state').ifExists().execute();
}
