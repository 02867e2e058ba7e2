import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { dropIndexIfExists, ensureIndex } from '../schema-helpers.js';

// one-api's clients page the log list by number (`p`), an offset counted in id order. On SQLite the id is the
// rowid, so an offset without a filter walked the table's own B-tree, whose leaves hold whole rows:
// `p=50,000` read half a million rows and took about 0.5 s at 10M logs. An index on the id alone holds a few
// bytes per row and answers the same walk by itself (about 8x faster, measured on 2M rows). Each consume log
// insert pays one more B-tree write, at the index's right edge where it stays cached. PostgreSQL already walks
// its primary key index; InnoDB's secondary indexes are not faster to walk than its clustered one.
export async function ensureLogOffsetIndex(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await ensureIndex(db, dialect, 'logs', 'idx_logs_id', ['id']);
}

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureLogOffsetIndex(db, dialect);
}

export async function down(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') await dropIndexIfExists(db, dialect, 'logs', 'idx_logs_id');
}
