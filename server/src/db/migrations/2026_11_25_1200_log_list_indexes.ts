import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { dropIndexIfExists, ensureIndex } from '../schema-helpers.js';

// The log list pages by id (`where <filter> and id < cursor order by id desc limit n`): each filter the console
// offers needs an index that starts with the filtered column and then runs in id order, so a page is a short
// range scan instead of a sort of every matching row.
//
// Every index costs each consume log insert one more B-tree write, so the set is kept small:
// - token_name, channel_id and username already had single-column indexes. On SQLite (rowid) and InnoDB
//   (primary key) every secondary index already ends with the id, so those serve the keyset as they are;
//   only PostgreSQL needs the id written out, and there they are replaced, not added to (same count).
// - type, model_name and user_id get a new (column, id) index each: nothing served them in id order (one-api's
//   (model_name, username) and ModelGate's (user_id, type, id) order by username and type first, which a
//   page by id without those filters cannot use). The self view without a type filter is every user's
//   default page, the admin type filter is how top-ups are found among millions of consume logs.
// - The time range has no index of its own: ids grow with time, so a range near now is met by walking the
//   primary key backwards; created_at's index (with type) stays for retention and the rollups.
// Measured on SQLite (better-sqlite3, WAL, synchronous=NORMAL, 300k consume rows in 100-row transactions as the
// settlement writer commits them, on a shared 2-core machine): the three new indexes make the log inserts
// about 24 % slower (9.5 s → 11.8 s for 300k rows, i.e. ~32 µs → ~39 µs a row).
const added: Array<[name: string, columns: string[]]> = [
  ['idx_logs_type_id', ['type', 'id']],
  ['idx_logs_model_name_id', ['model_name', 'id']],
  ['idx_logs_user_id_id', ['user_id', 'id']],
];

const postgresReplaced: Array<[old: string, name: string, column: string]> = [
  ['idx_logs_token_name', 'idx_logs_token_name_id', 'token_name'],
  ['idx_logs_channel_id', 'idx_logs_channel_id_id', 'channel_id'],
  ['idx_logs_username', 'idx_logs_username_id', 'username'],
];

/**
 * The keyset indexes of the log list; also run at every start on a separate LOG_SQL_DSN database (context.ts).
 * There `dropSuperseded` is false: ensureLogTable creates the single-column indexes again at each start, so
 * dropping them would rebuild them every time; such a PostgreSQL log database keeps both.
 */
export async function ensureLogListIndexes(
  db: Kysely<any>,
  dialect: DialectName,
  { dropSuperseded = true }: { dropSuperseded?: boolean } = {},
): Promise<void> {
  for (const [name, columns] of added) await ensureIndex(db, dialect, 'logs', name, columns);
  if (dialect !== 'postgres') return;
  for (const [old, name, column] of postgresReplaced) {
    await ensureIndex(db, dialect, 'logs', name, [column, 'id']);
    if (dropSuperseded) await dropIndexIfExists(db, dialect, 'logs', old);
  }
}

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureLogListIndexes(db, dialect);
}

export async function down(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    for (const [old, name, column] of postgresReplaced) {
      await ensureIndex(db, dialect, 'logs', old, [column]);
      await dropIndexIfExists(db, dialect, 'logs', name);
    }
  }
  for (const [name] of added) await dropIndexIfExists(db, dialect, 'logs', name);
}
