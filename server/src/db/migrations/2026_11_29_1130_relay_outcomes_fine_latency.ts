import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureTable } from '../schema-helpers.js';

// Issue 33: finer latency buckets below 250 ms, so the status page can tell a 5 ms median from a 200 ms one.
// Rows written before this migration count every call up to 250 ms in latency_le_250; they are pruned after
// two days, so until then a median in that bucket may read 100–250 ms for calls that were faster.
const FINE_COLUMNS = ['latency_le_10', 'latency_le_25', 'latency_le_50', 'latency_le_100'] as const;

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(
    db,
    dialect,
    'relay_outcomes',
    FINE_COLUMNS.map((column) => [column, 'bigint', 0] as const),
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of FINE_COLUMNS) await db.schema.alterTable('relay_outcomes').dropColumn(column).execute();
}
