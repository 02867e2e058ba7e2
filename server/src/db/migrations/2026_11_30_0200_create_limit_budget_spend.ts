import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Issue 31: what each budget has spent in a period (`scope` t:<token id> or u:<user id>, `period` its name,
// e.g. 2026-11-29, w2026-11-23, 2026-11), so a restart of every node or a Redis flush does not forget it
// (decision 0031). Each node adds its settled charges every second; the counters are rebuilt from it.
const budgetSpend: readonly ColumnSpec[] = [
  ['scope', 'varchar(32)', ''],
  ['period', 'varchar(16)', ''],
  ['spent', 'bigint', 0],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'limit_budget_spend', budgetSpend, ['scope', 'period']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('limit_budget_spend').ifExists().execute();
}
