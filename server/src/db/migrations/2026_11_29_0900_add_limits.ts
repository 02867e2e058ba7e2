import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Issue 31: limits (0 = none) and a spend cap per period on tokens and users. Columns with constant defaults,
// which all three engines add without rewriting the table.
const limitColumns: readonly ColumnSpec[] = [
  ['rpm_limit', 'int', 0],
  ['tpm_limit', 'bigint', 0],
  ['concurrency_limit', 'int', 0],
  ['budget_quota', 'bigint', 0],
  // '' (none), 'day', 'week' or 'month'.
  ['budget_period', 'varchar(8)', ''],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'tokens', limitColumns);
  await ensureTable(db, dialect, 'users', limitColumns);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tokens', 'users'])
    for (const [name] of limitColumns) await db.schema.alterTable(table).dropColumn(name).execute();
}
