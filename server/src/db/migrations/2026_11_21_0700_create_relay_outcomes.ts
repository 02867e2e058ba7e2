import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureIndex, ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Relay attempts per minute, model and channel (service status page); latency as a fixed histogram so a
// median can be computed with column sums on every database.
const relayOutcomes: ColumnSpec[] = [
  ['bucket_start', 'bigint'],
  ['model_name', 'string'],
  ['channel_id', 'bigint'],
  ['success_count', 'bigint', 0],
  ['failure_count', 'bigint', 0],
  ['latency_le_250', 'bigint', 0],
  ['latency_le_500', 'bigint', 0],
  ['latency_le_1000', 'bigint', 0],
  ['latency_le_2000', 'bigint', 0],
  ['latency_le_4000', 'bigint', 0],
  ['latency_le_8000', 'bigint', 0],
  ['latency_le_16000', 'bigint', 0],
  ['latency_le_32000', 'bigint', 0],
  ['latency_le_64000', 'bigint', 0],
  ['latency_gt_64000', 'bigint', 0],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'relay_outcomes', relayOutcomes, ['bucket_start', 'model_name', 'channel_id']);
  await ensureIndex(db, dialect, 'relay_outcomes', 'idx_relay_outcomes_channel', ['channel_id', 'bucket_start']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('relay_outcomes').ifExists().execute();
}
