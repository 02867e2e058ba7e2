import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureIndex, ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Issue 32, point 2 (decision 0030): a user's passkeys (WebAuthn credentials), a sign-in method that counts as
// a second factor.
const userPasskeys: readonly ColumnSpec[] = [
  ['id', 'id'],
  ['user_id', 'int', 0],
  // The authenticator's credential id, base64url: a sign-in names its credential by it (longer ids are refused,
  // 191 characters fit MySQL's index limit).
  ['credential_id', 'string', ''],
  // The COSE public key, base64url.
  ['public_key', 'text'],
  // The authenticator's signature counter (0 for most passkeys): a clone shows as a counter that goes back.
  ['counter', 'bigint', 0],
  // JSON array of the transports the authenticator named (usb, internal, hybrid...).
  ['transports', 'varchar(255)', '[]'],
  ['name', 'varchar(64)', ''],
  ['created_at', 'bigint', 0],
  ['last_used_at', 'bigint', 0],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'user_passkeys', userPasskeys);
  await ensureIndex(db, dialect, 'user_passkeys', 'idx_user_passkeys_credential_id', ['credential_id'], true);
  await ensureIndex(db, dialect, 'user_passkeys', 'idx_user_passkeys_user_id', ['user_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_passkeys').ifExists().execute();
}
