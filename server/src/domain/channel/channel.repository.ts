import { startsWith } from '../../lib/like-pattern.js';
import { insertReturningId } from '../../db/insert-id.js';
import type { ChannelRow, Db, NewChannel } from '../../db/tables.js';
import { ChannelStatus, channelsPerPage, maxChannelSearchResults } from './channel.constants.js';

/** Optional narrowing of the channel list. */
export interface ChannelListFilter {
  type?: number;
  status?: number;
}

export const findChannelById = (db: Db, id: number): Promise<ChannelRow | undefined> =>
  db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();

/** One page of channels, newest first (one-api's order). */
export function listChannels(db: Db, page: number, filter: ChannelListFilter = {}): Promise<ChannelRow[]> {
  let query = db.selectFrom('channels').selectAll();
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query
    .orderBy('id', 'desc')
    .limit(channelsPerPage)
    .offset(page * channelsPerPage)
    .execute();
}

/**
 * Channels whose id equals the keyword or whose name starts with it, newest first, capped. The keyword is
 * a bound parameter, so SQL metacharacters in it are plain text.
 */
export function searchChannels(db: Db, keyword: string): Promise<ChannelRow[]> {
  const id = /^\d{1,15}$/.test(keyword) ? Number(keyword) : 0;
  return db
    .selectFrom('channels')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', id), startsWith('name', keyword)]))
    .orderBy('id', 'desc')
    .limit(maxChannelSearchResults)
    .execute();
}

/** Every channel, or only the disabled ones (manually or automatically), oldest first: what a bulk test walks. */
export function listChannelsForScope(db: Db, scope: 'all' | 'disabled'): Promise<ChannelRow[]> {
  let query = db.selectFrom('channels').selectAll();
  if (scope === 'disabled')
    query = query.where('status', 'in', [ChannelStatus.ManuallyDisabled, ChannelStatus.AutoDisabled]);
  return query.orderBy('id').execute();
}

/** Channels of the given types, oldest first. */
export const listChannelsOfTypes = (db: Db, types: readonly number[]): Promise<ChannelRow[]> =>
  types.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('channels')
        .selectAll()
        .where('type', 'in', [...types])
        .orderBy('id')
        .execute();

export const insertChannel = (db: Db, channel: NewChannel): Promise<number> =>
  insertReturningId(db, 'channels', channel);

/** Ids of the channels an admin or the program disabled. */
export async function findDisabledChannelIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('channels')
    .select('id')
    .where('status', 'in', [ChannelStatus.ManuallyDisabled, ChannelStatus.AutoDisabled])
    .execute();
  return rows.map((row) => Number(row.id));
}

/** Deletes channels and their abilities; run it in a transaction so neither outlives the other. */
export async function deleteChannelsWithAbilities(db: Db, ids: readonly number[]): Promise<number> {
  let deleted = 0;
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    await db.deleteFrom('abilities').where('channel_id', 'in', chunk).execute();
    const result = await db.deleteFrom('channels').where('id', 'in', chunk).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

/** Stores the outcome of a test: latency in ms (0 after a failed single test, as one-api) and when. */
export async function recordChannelTest(db: Db, id: number, responseTimeMs: number, testTime: number): Promise<void> {
  await db
    .updateTable('channels')
    .set({ response_time: Math.round(responseTimeMs), test_time: testTime })
    .where('id', '=', id)
    .execute();
}

/** Stores a balance read from the upstream. */
export async function recordChannelBalance(db: Db, id: number, balance: number, updatedTime: number): Promise<void> {
  await db.updateTable('channels').set({ balance, balance_updated_time: updatedTime }).where('id', '=', id).execute();
}
