import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/connect.js';
import type { Database } from '../../db/tables.js';

/** A price an admin set or imported (migration 2026_11_25_2200). */
export interface ModelPriceTable {
  model: string;
  /** '' for every group. */
  price_group: string;
  /** A list price as JSON. */
  price: string;
  note: string;
  updated_at: number;
}

export interface PricingDatabase {
  model_prices: ModelPriceTable;
}

/** The main database seen through the pricing table (tables.ts is shared; this folder keeps its own). */
const pricing = (db: Kysely<Database>) => db as unknown as Kysely<PricingDatabase>;

export const listModelPrices = (db: Kysely<Database>) => pricing(db).selectFrom('model_prices').selectAll().execute();

/** Inserts or replaces rows, in one transaction. */
export async function upsertModelPrices(
  db: Kysely<Database>,
  dialect: DialectName,
  rows: readonly ModelPriceTable[],
): Promise<void> {
  await pricing(db)
    .transaction()
    .execute(async (transaction) => {
      for (const row of rows) {
        const insert = transaction.insertInto('model_prices').values(row);
        const changes = { price: row.price, note: row.note, updated_at: row.updated_at };
        await (
          dialect === 'mysql'
            ? insert.onDuplicateKeyUpdate(changes)
            : insert.onConflict((conflict) => conflict.columns(['model', 'price_group']).doUpdateSet(changes))
        ).execute();
      }
    });
}

/** Deletes one row; answers whether there was one. */
export async function deleteModelPrice(db: Kysely<Database>, model: string, group: string): Promise<boolean> {
  const result = await pricing(db)
    .deleteFrom('model_prices')
    .where('model', '=', model)
    .where('price_group', '=', group)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
