import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';

// A counter each session carries from sign-in (decision 0002): raising it ends every session of the user, on
// every node, at the next request. Existing rows (and cookies without a generation) start at 0.
const column = 'session_generation';

async function hasColumn(db: Kysely<any>): Promise<boolean> {
  const users = (await db.introspection.getTables()).find((table) => table.name === 'users');
  return users?.columns.some((candidate) => candidate.name === column) ?? false;
}

export async function up(db: Kysely<any>, _dialect: DialectName): Promise<void> {
  if (await hasColumn(db)) return;
  await db.schema
    .alterTable('users')
    .addColumn(column, 'integer', (definition) => definition.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(await hasColumn(db))) return;
  await db.schema.alterTable('users').dropColumn(column).execute();
}
