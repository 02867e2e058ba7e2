import type { Insertable } from 'kysely';
import type { Database, Db } from './tables.js';
type TableWithId = 'users' | 'tokens' | 'channels' | 'redemptions' | 'logs';

/** Inserts one row and returns its new id: RETURNING where the engine has it, the insert id on MySQL. */
export async function insertReturningId<T extends TableWithId>(
  db: Db,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  const query = db.insertInto(table).values(values as never);
  if (db.getExecutor().adapter.supportsReturning) {
    const row = (await query.returning('id' as never).executeTakeFirstOrThrow()) as unknown as { id: number };
    return Number(row.id);
  }
  const result = await query.executeTakeFirstOrThrow();
  return Number(result.insertId);
}
