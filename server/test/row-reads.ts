import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/tables.js';

/** One numeric column of the row with this id, read straight from the database (past every cache). */
export async function readNumberColumn<Table extends 'users' | 'channels'>(
  db: Kysely<Database>,
  table: Table,
  column: keyof Database[Table] & string,
  id: number,
): Promise<number> {
  const row = await db
    .selectFrom(table as 'users')
    .select(sql<unknown>`${sql.ref(column)}`.as('value'))
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.value);
}
