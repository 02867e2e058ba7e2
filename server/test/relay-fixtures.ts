import { sql } from 'kysely';
import { insertReturningId } from '../src/db/insert-id.js';
import type { ChannelRow, NewChannel } from '../src/db/tables.js';
import { generateTokenKey } from '../src/lib/random.js';
import { nowSeconds } from '../src/lib/time.js';
import { relayRuntime } from '../src/relay/runtime.js';
import type { TestServer } from './test-server.js';

/** A boolean as each engine binds it (better-sqlite3 refuses JS booleans). */
export const flag = (server: TestServer, value: boolean) =>
  server.context.database.dialect === 'postgres' ? value : Number(value);

/**
 * Inserts a channel and its abilities straight into the database (as the channel API does), then tells the
 * relay so that its routing snapshot is rebuilt.
 */
export async function createChannel(
  server: TestServer,
  fields: Partial<NewChannel> & { base_url: string },
): Promise<ChannelRow> {
  const db = server.context.database.db;
  const values: NewChannel = {
    type: 1,
    key: 'sk-upstream-key',
    status: 1,
    name: 'mock channel',
    created_time: nowSeconds(),
    models: 'gpt-4o-mini,gpt-3.5-turbo',
    group: 'default',
    config: '{}',
    ...fields,
  };
  const id = await insertReturningId(db, 'channels', values);
  for (const group of String(values.group).split(',')) {
    for (const model of new Set(String(values.models).split(','))) {
      await db
        .insertInto('abilities')
        .values({
          group,
          model,
          channel_id: id,
          enabled: flag(server, values.status === 1),
          priority: values.priority ?? 0,
        })
        .execute();
    }
  }
  await server.context.bus.publish('channels', id);
  await relayRuntime(server.context).router.reload();
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Creates a user with the given quota and group and returns its id. */
export async function createUser(
  server: TestServer,
  fields: { username: string; quota: number; group?: string; role?: number },
): Promise<number> {
  return insertReturningId(server.context.database.db, 'users', {
    username: fields.username,
    password: 'x',
    display_name: fields.username,
    quota: fields.quota,
    group: fields.group ?? 'default',
    role: fields.role ?? 1,
    access_token: null,
    aff_code: null,
  });
}

/** Creates an API token for a user and returns its key (without `sk-`) and id. */
export async function createToken(
  server: TestServer,
  userId: number,
  fields: {
    remain_quota?: number;
    unlimited_quota?: boolean;
    models?: string | null;
    subnet?: string;
    expired_time?: number;
    status?: number;
    name?: string;
  } = {},
): Promise<{ id: number; key: string }> {
  const key = generateTokenKey();
  const id = await insertReturningId(server.context.database.db, 'tokens', {
    user_id: userId,
    key,
    name: fields.name ?? 'test token',
    created_time: nowSeconds(),
    accessed_time: nowSeconds(),
    remain_quota: fields.remain_quota ?? 0,
    unlimited_quota: flag(server, fields.unlimited_quota ?? true),
    models: fields.models ?? null,
    subnet: fields.subnet ?? '',
    expired_time: fields.expired_time ?? -1,
    status: fields.status ?? 1,
  });
  return { id, key };
}

/** Waits for the charges the relay has answered but not yet written (it answers first). */
export const settled = (server: TestServer) => relayRuntime(server.context).settlements.settled();

/** The balances billing touches, read from the database once pending charges are written. */
export async function balances(server: TestServer, userId: number, tokenId: number, channelId?: number) {
  await settled(server);
  const db = server.context.database.db;
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota', 'status'])
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow();
  const channel = channelId
    ? await db
        .selectFrom('channels')
        .select(['used_quota', 'status'])
        .where('id', '=', channelId)
        .executeTakeFirstOrThrow()
    : undefined;
  const logs = await server.context.logDatabase.db
    .selectFrom('logs')
    .select(sql<number>`count(*)`.as('count'))
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  return {
    userQuota: Number(user.quota),
    userUsed: Number(user.used_quota),
    requestCount: Number(user.request_count),
    tokenRemain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    tokenStatus: Number(token.status),
    channelUsed: channel ? Number(channel.used_quota) : 0,
    channelStatus: channel ? Number(channel.status) : 0,
    consumeLogs: Number(logs.count),
  };
}

/** What a user and each of `channelIds` were charged while `run` ran (a retry's failed channel: nothing). */
export async function chargesDuring(
  server: TestServer,
  member: { userId: number; tokenId: number },
  channelIds: number[],
  run: () => Promise<unknown>,
): Promise<{ user: number; channels: number[] }> {
  const read = () => Promise.all(channelIds.map((id) => balances(server, member.userId, member.tokenId, id)));
  const before = await read();
  await run();
  const after = await read();
  return {
    user: (after[0]?.userUsed ?? 0) - (before[0]?.userUsed ?? 0),
    channels: after.map((balance, index) => balance.channelUsed - before[index]!.channelUsed),
  };
}

/** Sets an option the way the option API does (database row, then the in-memory store). */
export async function setOption(server: TestServer, key: string, value: string): Promise<void> {
  const db = server.context.database.db;
  await db.deleteFrom('options').where('key', '=', key).execute();
  await db.insertInto('options').values({ key, value }).execute();
  server.context.options.apply(key, value);
}

/**
 * Prices every model nothing else prices (DefaultModelPrice) as one-api charged a model it did not know: ratio
 * 30 with a completion ratio of 1, that is US$60 per 1M tokens at 500,000 quota per US$. For tests about
 * routing rather than prices, whose made-up model names would otherwise be refused (decision 0026).
 */
export const priceUnknownModels = (server: TestServer) =>
  setOption(server, 'DefaultModelPrice', JSON.stringify({ input: 60, output: 60 }));
