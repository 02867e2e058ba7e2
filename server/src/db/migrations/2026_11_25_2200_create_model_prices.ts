import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Prices an admin sets or imports (issue 19, decision 0026): one row per model, and per group for a group's
// own price (`price_group` '' = every group). The price is JSON text; one row each keeps an import of
// hundreds of models within MySQL's TEXT, which a single option value (one-api's ModelRatio) is not.
const modelPrices: ColumnSpec[] = [
  ['model', 'string'],
  ['price_group', 'varchar(64)', ''],
  ['price', 'text'],
  ['note', 'varchar(255)', ''],
  ['updated_at', 'bigint', 0],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'model_prices', modelPrices, ['model', 'price_group']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('model_prices').ifExists().execute();
}
