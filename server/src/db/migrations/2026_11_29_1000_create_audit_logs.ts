import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureIndex, ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Issue 32, point 3: the admin audit trail, a hash chain. `seq` numbers the entries without gaps; each entry's
// hash covers its fields and the previous entry's hash. audit_head holds the chain's last seq and hash: its one
// row is the lock every append takes first (so entries form one line across connections and nodes), and it
// lets a deleted tail be seen.
const auditLogs: readonly ColumnSpec[] = [
  ['id', 'id'],
  ['seq', 'bigint', 0],
  ['created_at', 'bigint', 0],
  ['actor_id', 'int', 0],
  ['actor_name', 'varchar(64)', ''],
  ['actor_role', 'int', 0],
  ['ip', 'varchar(64)', ''],
  ['action', 'varchar(64)', ''],
  ['target_type', 'varchar(32)', ''],
  ['target_id', 'string', ''],
  // JSON text, secrets masked (MySQL reserves BEFORE, hence the suffix).
  ['before_json', 'text'],
  ['after_json', 'text'],
  ['prev_hash', 'varchar(64)', ''],
  ['hash', 'varchar(64)', ''],
];

const auditHead: readonly ColumnSpec[] = [
  ['id', 'int', 1],
  ['seq', 'bigint', 0],
  ['hash', 'varchar(64)', ''],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'audit_logs', auditLogs);
  await ensureIndex(db, dialect, 'audit_logs', 'idx_audit_logs_seq', ['seq'], true);
  await ensureIndex(db, dialect, 'audit_logs', 'idx_audit_logs_created_at', ['created_at']);
  await ensureTable(db, dialect, 'audit_head', auditHead, ['id']);
  const head = await db.selectFrom('audit_head').select('id').where('id', '=', 1).executeTakeFirst();
  if (!head) await db.insertInto('audit_head').values({ id: 1, seq: 0, hash: '' }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_logs').ifExists().execute();
  await db.schema.dropTable('audit_head').ifExists().execute();
}
