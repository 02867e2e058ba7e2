import type { Kysely } from 'kysely';
import type { DialectName } from '../connect.js';
import { dropIndexIfExists, ensureIndex, ensureTable, type ColumnSpec } from '../schema-helpers.js';

// Column lists mirror one-api's GORM models (types as GORM creates them), plus `redemptions.used_user_id`.
const users: ColumnSpec[] = [
  ['id', 'id'],
  ['username', 'string'],
  ['password', 'text'],
  ['display_name', 'string', ''],
  ['role', 'bigint', 1],
  ['status', 'bigint', 1],
  ['email', 'string', ''],
  ['github_id', 'string', ''],
  ['wechat_id', 'string', ''],
  ['lark_id', 'string', ''],
  ['oidc_id', 'string', ''],
  ['access_token', 'char(32)', null],
  ['quota', 'bigint', 0],
  ['used_quota', 'bigint', 0],
  ['request_count', 'bigint', 0],
  ['group', 'varchar(32)', 'default'],
  ['aff_code', 'varchar(32)', null],
  ['inviter_id', 'bigint', 0],
];

const tokens: ColumnSpec[] = [
  ['id', 'id'],
  ['user_id', 'bigint', 0],
  ['key', 'char(48)'],
  ['status', 'bigint', 1],
  ['name', 'string', ''],
  ['created_time', 'bigint', 0],
  ['accessed_time', 'bigint', 0],
  ['expired_time', 'bigint', -1],
  ['remain_quota', 'bigint', 0],
  ['unlimited_quota', 'bool', false],
  ['used_quota', 'bigint', 0],
  ['models', 'text'],
  ['subnet', 'string', ''],
];

const channels: ColumnSpec[] = [
  ['id', 'id'],
  ['type', 'bigint', 0],
  ['key', 'text'],
  ['status', 'bigint', 1],
  ['name', 'string', ''],
  ['weight', 'bigint', 0],
  ['created_time', 'bigint', 0],
  ['test_time', 'bigint', 0],
  ['response_time', 'bigint', 0],
  ['base_url', 'string', ''],
  ['other', 'text'],
  ['balance', 'double', 0],
  ['balance_updated_time', 'bigint', 0],
  ['models', 'text'],
  ['group', 'varchar(32)', 'default'],
  ['used_quota', 'bigint', 0],
  ['model_mapping', 'varchar(1024)', ''],
  ['priority', 'bigint', 0],
  ['config', 'text'],
  ['system_prompt', 'text'],
];

const abilities: ColumnSpec[] = [
  ['group', 'varchar(32)'],
  ['model', 'string'],
  ['channel_id', 'bigint'],
  ['enabled', 'bool', true],
  ['priority', 'bigint', 0],
];

const redemptions: ColumnSpec[] = [
  ['id', 'id'],
  ['user_id', 'bigint', 0],
  ['key', 'char(32)'],
  ['status', 'bigint', 1],
  ['name', 'string', ''],
  ['quota', 'bigint', 100],
  ['created_time', 'bigint', 0],
  ['redeemed_time', 'bigint', 0],
  ['used_user_id', 'bigint', 0],
];

const logs: ColumnSpec[] = [
  ['id', 'id'],
  ['user_id', 'bigint', 0],
  ['created_at', 'bigint', 0],
  ['type', 'bigint', 0],
  ['content', 'text'],
  ['username', 'string', ''],
  ['token_name', 'string', ''],
  ['model_name', 'string', ''],
  ['quota', 'bigint', 0],
  ['prompt_tokens', 'bigint', 0],
  ['completion_tokens', 'bigint', 0],
  ['channel_id', 'bigint', 0],
  ['request_id', 'string', ''],
  ['elapsed_time', 'bigint', 0],
  ['is_stream', 'bool', false],
  ['system_prompt_reset', 'bool', false],
];

const options: ColumnSpec[] = [
  ['key', 'string'],
  ['value', 'text'],
];

export async function up(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'users', users);
  await ensureIndex(db, dialect, 'users', 'idx_users_username', ['username'], true);
  await ensureIndex(db, dialect, 'users', 'idx_users_display_name', ['display_name']);
  await ensureIndex(db, dialect, 'users', 'idx_users_email', ['email']);
  await ensureIndex(db, dialect, 'users', 'idx_users_github_id', ['github_id']);
  await ensureIndex(db, dialect, 'users', 'idx_users_wechat_id', ['wechat_id']);
  await ensureIndex(db, dialect, 'users', 'idx_users_lark_id', ['lark_id']);
  await ensureIndex(db, dialect, 'users', 'idx_users_access_token', ['access_token'], true);
  await ensureIndex(db, dialect, 'users', 'idx_users_aff_code', ['aff_code'], true);
  await ensureIndex(db, dialect, 'users', 'idx_users_inviter_id', ['inviter_id']);

  await ensureTable(db, dialect, 'tokens', tokens);
  await ensureIndex(db, dialect, 'tokens', 'idx_tokens_key', ['key'], true);
  await ensureIndex(db, dialect, 'tokens', 'idx_tokens_name', ['name']);
  await ensureIndex(db, dialect, 'tokens', 'idx_tokens_user_id', ['user_id', 'id']);

  await ensureTable(db, dialect, 'channels', channels);
  await ensureIndex(db, dialect, 'channels', 'idx_channels_name', ['name']);

  await ensureTable(db, dialect, 'abilities', abilities, ['group', 'model', 'channel_id']);
  await ensureIndex(db, dialect, 'abilities', 'idx_abilities_channel_id', ['channel_id']);
  await ensureIndex(db, dialect, 'abilities', 'idx_abilities_priority', ['priority']);

  await ensureTable(db, dialect, 'redemptions', redemptions);
  await ensureIndex(db, dialect, 'redemptions', 'idx_redemptions_key', ['key'], true);
  await ensureIndex(db, dialect, 'redemptions', 'idx_redemptions_name', ['name']);

  await ensureLogTable(db, dialect);

  await ensureTable(db, dialect, 'options', options, ['key']);
}

/** The logs table alone, for a separate LOG_SQL_DSN database. */
export async function ensureLogTable(db: Kysely<any>, dialect: DialectName): Promise<void> {
  await ensureTable(db, dialect, 'logs', logs);
  await ensureIndex(db, dialect, 'logs', 'idx_created_at_type', ['created_at', 'type']);
  await ensureIndex(db, dialect, 'logs', 'idx_logs_token_name', ['token_name']);
  await ensureIndex(db, dialect, 'logs', 'idx_logs_channel_id', ['channel_id']);
  // Added by ModelGate: the self views filter by user and type and page by id.
  await ensureIndex(db, dialect, 'logs', 'idx_logs_user_type_id', ['user_id', 'type', 'id']);
  await ensureIndex(db, dialect, 'logs', 'idx_logs_username', ['username']);
  // A log database one-api created has two more, redundant with the ones above (see the 0800 migration).
  await dropIndexIfExists(db, dialect, 'logs', 'idx_logs_user_id');
  await dropIndexIfExists(db, dialect, 'logs', 'idx_logs_model_name');
  // one-api's (model_name, username), which no query needs (the 2026_11_29_0300 migration).
  await dropIndexIfExists(db, dialect, 'logs', 'index_username_model_name');
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['options', 'logs', 'redemptions', 'abilities', 'channels', 'tokens', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
