import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { ensureIndex, ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Issue 32, points 1 and 2 (decisions 0002 and 0030): one row per signed-in session, so one can be listed and
// ended alone, and a user's second factors (TOTP with backup codes).
const userSessions: readonly ColumnSpec[] = [
  // Random and unguessable (32 bytes, base64url); the signed cookie carries it.
  ['id', 'varchar(64)'],
  ['user_id', 'int', 0],
  // The user's session_generation at sign-in: a password change, ban or role change ends older rows.
  ['generation', 'int', 0],
  ['created_at', 'bigint', 0],
  ['last_seen_at', 'bigint', 0],
  ['ip', 'varchar(64)', ''],
  ['user_agent', 'varchar(255)', ''],
  ['revoked', 'int', 0],
];

const userTwoFactors: readonly ColumnSpec[] = [
  ['user_id', 'int'],
  // AES-256-GCM with a key derived from SESSION_SECRET: never sent again after setup.
  ['totp_secret', 'varchar(255)', ''],
  ['enabled', 'int', 0],
  // JSON array of SHA-256 hashes of the unused backup codes.
  ['backup_codes', 'text'],
  // The last TOTP time step accepted: a code works once.
  ['last_step', 'bigint', 0],
  ['created_at', 'bigint', 0],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'user_sessions', userSessions, ['id']);
  await ensureIndex(db, dialect, 'user_sessions', 'idx_user_sessions_user_id', ['user_id']);
  await ensureTable(db, dialect, 'user_two_factors', userTwoFactors, ['user_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_sessions').ifExists().execute();
  await db.schema.dropTable('user_two_factors').ifExists().execute();
}
