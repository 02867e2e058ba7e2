import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The schema, table by table. Names and columns follow one-api's so an existing one-api database opens as is.
 * Booleans come back as 0/1 on SQLite and MySQL: read them through `Boolean(...)` in presenters.
 */
export interface Database {
  users: UserTable;
  tokens: TokenTable;
  channels: ChannelTable;
  abilities: AbilityTable;
  redemptions: RedemptionTable;
  logs: LogTable;
  options: OptionTable;
  relay_outcomes: RelayOutcomeTable;
  reservations: ReservationTable;
  relay_nodes: RelayNodeTable;
  settlement_writes: SettlementWriteTable;
  log_rollups: LogRollupTable;
  log_rollups_by_model: LogRollupByModelTable;
  log_rollup_state: LogRollupStateTable;
  responses: ResponseTable;
  user_sessions: UserSessionTable;
  user_two_factors: UserTwoFactorTable;
  user_passkeys: UserPasskeyTable;
}

type Flag = ColumnType<boolean | number, boolean | number | undefined, boolean | number>;

export interface UserTable {
  id: Generated<number>;
  username: string;
  password: string;
  display_name: ColumnType<string, string | undefined, string>;
  role: ColumnType<number, number | undefined, number>;
  status: ColumnType<number, number | undefined, number>;
  email: ColumnType<string, string | undefined, string>;
  github_id: ColumnType<string, string | undefined, string>;
  wechat_id: ColumnType<string, string | undefined, string>;
  lark_id: ColumnType<string, string | undefined, string>;
  oidc_id: ColumnType<string, string | undefined, string>;
  access_token: ColumnType<string | null, string | null | undefined, string | null>;
  quota: ColumnType<number, number | undefined, number>;
  used_quota: ColumnType<number, number | undefined, number>;
  request_count: ColumnType<number, number | undefined, number>;
  group: ColumnType<string, string | undefined, string>;
  aff_code: ColumnType<string | null, string | null | undefined, string | null>;
  inviter_id: ColumnType<number, number | undefined, number>;
  /** Raised to end every session of the user (decision 0002); a session carries the value it began with. */
  session_generation: ColumnType<number, number | undefined, number>;
  /** Issue 31: limits (0 = none) and a spend cap per period ('' | 'day' | 'week' | 'month'). */
  rpm_limit: ColumnType<number, number | undefined, number>;
  tpm_limit: ColumnType<number, number | undefined, number>;
  concurrency_limit: ColumnType<number, number | undefined, number>;
  budget_quota: ColumnType<number, number | undefined, number>;
  budget_period: ColumnType<string, string | undefined, string>;
}

/** One signed-in session (decision 0002): listed, and ended one by one. */
export interface UserSessionTable {
  id: string;
  user_id: number;
  generation: number;
  created_at: number;
  last_seen_at: number;
  ip: string;
  user_agent: string;
  revoked: ColumnType<number, number | undefined, number>;
}

/** A user's TOTP secret (encrypted) and hashed backup codes (decision 0030). */
export interface UserTwoFactorTable {
  user_id: number;
  totp_secret: string;
  enabled: ColumnType<number, number | undefined, number>;
  backup_codes: ColumnType<string | null, string | null | undefined, string | null>;
  last_step: ColumnType<number, number | undefined, number>;
  created_at: number;
}

/** A user's passkey: a WebAuthn credential, a sign-in that counts as a second factor (decision 0030). */
export interface UserPasskeyTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: ColumnType<number, number | undefined, number>;
  transports: ColumnType<string, string | undefined, string>;
  name: ColumnType<string, string | undefined, string>;
  created_at: number;
  last_used_at: ColumnType<number, number | undefined, number>;
}

export interface TokenTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: ColumnType<number, number | undefined, number>;
  name: ColumnType<string, string | undefined, string>;
  created_time: number;
  accessed_time: number;
  expired_time: ColumnType<number, number | undefined, number>;
  remain_quota: ColumnType<number, number | undefined, number>;
  unlimited_quota: Flag;
  used_quota: ColumnType<number, number | undefined, number>;
  models: ColumnType<string | null, string | null | undefined, string | null>;
  subnet: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 31: limits (0 = none) and a spend cap per period ('' | 'day' | 'week' | 'month'). */
  rpm_limit: ColumnType<number, number | undefined, number>;
  tpm_limit: ColumnType<number, number | undefined, number>;
  concurrency_limit: ColumnType<number, number | undefined, number>;
  budget_quota: ColumnType<number, number | undefined, number>;
  budget_period: ColumnType<string, string | undefined, string>;
}

export interface ChannelTable {
  id: Generated<number>;
  type: ColumnType<number, number | undefined, number>;
  key: string;
  status: ColumnType<number, number | undefined, number>;
  name: ColumnType<string, string | undefined, string>;
  weight: ColumnType<number | null, number | null | undefined, number | null>;
  created_time: number;
  test_time: ColumnType<number, number | undefined, number>;
  response_time: ColumnType<number, number | undefined, number>;
  base_url: ColumnType<string | null, string | null | undefined, string | null>;
  other: ColumnType<string | null, string | null | undefined, string | null>;
  balance: ColumnType<number, number | undefined, number>;
  balance_updated_time: ColumnType<number, number | undefined, number>;
  models: ColumnType<string, string | undefined, string>;
  group: ColumnType<string, string | undefined, string>;
  used_quota: ColumnType<number, number | undefined, number>;
  model_mapping: ColumnType<string | null, string | null | undefined, string | null>;
  priority: ColumnType<number | null, number | null | undefined, number | null>;
  config: ColumnType<string, string | undefined, string>;
  system_prompt: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AbilityTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: Flag;
  priority: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface RedemptionTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: ColumnType<number, number | undefined, number>;
  name: ColumnType<string, string | undefined, string>;
  quota: ColumnType<number, number | undefined, number>;
  created_time: number;
  redeemed_time: ColumnType<number, number | undefined, number>;
  /** Added by ModelGate: who redeemed the code (one-api never recorded it). */
  used_user_id: ColumnType<number, number | undefined, number>;
}

export interface LogTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
  type: number;
  content: ColumnType<string, string | undefined, string>;
  username: ColumnType<string, string | undefined, string>;
  token_name: ColumnType<string, string | undefined, string>;
  model_name: ColumnType<string, string | undefined, string>;
  quota: ColumnType<number, number | undefined, number>;
  prompt_tokens: ColumnType<number, number | undefined, number>;
  completion_tokens: ColumnType<number, number | undefined, number>;
  channel_id: ColumnType<number, number | undefined, number>;
  request_id: ColumnType<string, string | undefined, string>;
  elapsed_time: ColumnType<number, number | undefined, number>;
  is_stream: Flag;
  system_prompt_reset: Flag;
  /** Added by ModelGate (new-api's column): a consume log's receipt, `{"receipt": …}` as JSON text (decision 0026). */
  other: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OptionTable {
  key: string;
  value: string;
}

type Count = ColumnType<number, number | undefined, number>;

/** Added by ModelGate: relay attempts per minute, model and channel, for the service status page. */
export interface RelayOutcomeTable {
  bucket_start: number;
  model_name: string;
  channel_id: number;
  success_count: Count;
  failure_count: Count;
  latency_le_10: Count;
  latency_le_25: Count;
  latency_le_50: Count;
  latency_le_100: Count;
  latency_le_250: Count;
  latency_le_500: Count;
  latency_le_1000: Count;
  latency_le_2000: Count;
  latency_le_4000: Count;
  latency_le_8000: Count;
  latency_le_16000: Count;
  latency_le_32000: Count;
  latency_le_64000: Count;
  latency_gt_64000: Count;
}

/** Added by ModelGate: quota held by a relay call in flight (decision 0014). */
export interface ReservationTable {
  id: string;
  node_id: string;
  user_id: number;
  token_id: number;
  /** 1 when the token's own balance was reserved too. */
  limited: number;
  amount: number;
  request_id: ColumnType<string, string | undefined, string>;
  created_at: number;
}

/** Added by ModelGate: each running process's heartbeat, so the sweeper knows which nodes are gone. */
export interface RelayNodeTable {
  id: string;
  started_at: number;
  heartbeat_at: number;
}

/** Added by ModelGate: a marker per settlement write, to tell after a lost COMMIT whether it went through. */
export interface SettlementWriteTable {
  id: string;
  created_at: number;
}

/** Added by ModelGate: consume logs summed per hour × user × token × model × channel (decision 0018). */
export interface LogRollupTable {
  hour: number;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  channel_id: number;
  calls: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  elapsed_ms: number;
}

/** Added by ModelGate: the same sums per hour × model × channel (views with no user or token filter). */
export type LogRollupByModelTable = Omit<LogRollupTable, 'user_id' | 'username' | 'token_name'>;

/** Added by ModelGate: how far the background rollup of older logs has come. */
export interface LogRollupStateTable {
  id: number;
  boundary_id: number;
  cursor_id: number;
  frontier: number;
}

/**
 * Added by ModelGate: a Responses API response kept for `previous_response_id` until `expires_at` (seconds);
 * the JSON columns hold the conversation's items, the output items, the usage and the echoed settings.
 */
export interface ResponseTable {
  id: string;
  user_id: number;
  token_id: number;
  model: string;
  status: string;
  created_at: number;
  expires_at: number;
  input_items: string;
  output_items: string;
  usage: string;
  settings: string;
}

export type ReservationRow = Selectable<ReservationTable>;
export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type TokenRow = Selectable<TokenTable>;
export type NewToken = Insertable<TokenTable>;
export type ChannelRow = Selectable<ChannelTable>;
export type NewChannel = Insertable<ChannelTable>;
export type AbilityRow = Selectable<AbilityTable>;
export type RedemptionRow = Selectable<RedemptionTable>;
export type LogRow = Selectable<LogTable>;
export type NewLog = Insertable<LogTable>;

/** A handle or an open transaction: repositories take either, so that callers can compose transactions. */
export type Db = import('kysely').Kysely<Database> | import('kysely').Transaction<Database>;
