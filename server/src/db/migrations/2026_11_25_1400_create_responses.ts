import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureIndex, ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Responses kept for the Responses API's `previous_response_id`, GET and input_items (issue 18): one row
// per stored response, the conversation and the answer as JSON text, deleted once `expires_at` passes.
const responses: ColumnSpec[] = [
  ['id', 'varchar(64)'],
  ['user_id', 'bigint'],
  ['token_id', 'bigint'],
  ['model', 'string', ''],
  ['status', 'varchar(16)', ''],
  ['created_at', 'bigint'],
  ['expires_at', 'bigint'],
  ['input_items', 'text'],
  ['output_items', 'text'],
  ['usage', 'text'],
  ['settings', 'text'],
];

/** Conversations outgrow MySQL's TEXT (64 KiB): a coding agent's first prompt alone is some 40 KiB. */
const longColumns = ['input_items', 'output_items', 'settings'];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'responses', responses, ['id']);
  await ensureIndex(db, dialect, 'responses', 'idx_responses_expires_at', ['expires_at']);
  if (dialect === 'mysql')
    for (const column of longColumns) await sql`alter table responses modify ${sql.ref(column)} longtext`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('responses').ifExists().execute();
}
