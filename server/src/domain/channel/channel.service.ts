import type { AppContext } from '../../context.js';
import type { ChannelRow, Db } from '../../db/tables.js';
import { nowSeconds } from '../../lib/time.js';
import { replaceAbilities } from './channel-abilities.js';
import { channelRelay } from './channel-relay.js';
import { channelLimits, proxyChannelType } from './channel.constants.js';
import {
  channelBaseUrlRequired,
  channelKeyRequired,
  channelKeyTooLong,
  channelModelsRequired,
  channelNotFound,
  tooManyChannelKeys,
} from './channel.errors.js';
import {
  deleteChannelsWithAbilities,
  findChannelById,
  findDisabledChannelIds,
  insertChannel,
} from './channel.repository.js';
import { typesRequiringBaseUrl } from './channel-type-check.js';

/** The editable fields of a channel, already validated and normalised at the edge. */
export interface ChannelFields {
  type: number;
  name: string;
  base_url: string;
  other: string;
  model_mapping: string;
  system_prompt: string;
  models: string;
  group: string;
  config: string;
  priority: number;
  weight: number;
  status: number;
}

/** Rules that span fields, checked on the channel as it will be stored. */
function checkChannelRules(channel: Pick<ChannelFields, 'type' | 'models' | 'base_url'>): void {
  if (channel.models === '' && channel.type !== proxyChannelType) throw channelModelsRequired();
  if (channel.base_url === '' && typesRequiringBaseUrl.has(channel.type)) throw channelBaseUrlRequired();
}

/** one-api's batch rule: every non-empty line of the key box is a channel of its own. */
function keyLines(key: string): string[] {
  const keys = key
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (keys.length === 0) throw channelKeyRequired();
  if (keys.length > channelLimits.batchSize) throw tooManyChannelKeys(channelLimits.batchSize);
  if (keys.some((line) => line.length > channelLimits.key)) throw channelKeyTooLong(channelLimits.key);
  return keys;
}

/**
 * Tells every node's router that these channels changed, and waits until this node's router has re-read
 * them after the write: the answer to the write is only sent once a call on this node sees it. Published and
 * asked for in one go, so this node's own bus messages join the same read of these channels alone.
 */
async function announce(context: AppContext, ids: readonly number[]): Promise<void> {
  const published = Promise.all(ids.map((id) => context.bus.publish('channels', id)));
  await Promise.all([published, channelRelay(context)?.refresh(ids)]);
}

/** Creates one channel per key line, all of them and their abilities in one transaction; returns the ids. */
export async function createChannels(context: AppContext, fields: ChannelFields, key: string): Promise<number[]> {
  checkChannelRules(fields);
  const keys = keyLines(key);
  const createdTime = nowSeconds();
  const ids = await context.database.db.transaction().execute(async (transaction: Db) => {
    const created: number[] = [];
    for (const channelKey of keys) {
      const id = await insertChannel(transaction, { ...fields, key: channelKey, created_time: createdTime });
      await replaceAbilities(transaction, { id, ...fields });
      created.push(id);
    }
    return created;
  });
  await announce(context, ids);
  return ids;
}

/**
 * Rewrites a channel from the edit form: fields left out keep their value, an empty key keeps the old key.
 * The row and its abilities change in one transaction. Returns the stored row.
 */
export async function updateChannel(
  context: AppContext,
  id: number,
  changes: Partial<ChannelFields> & { key?: string },
): Promise<ChannelRow> {
  const { key, ...fields } = changes;
  const newKey = key?.trim() ?? '';
  if (newKey.length > channelLimits.key) throw channelKeyTooLong(channelLimits.key);
  return rewriteChannel(context, id, (existing) => {
    const merged = { ...existing, ...fields };
    checkChannelRules({ type: merged.type, models: merged.models ?? '', base_url: merged.base_url ?? '' });
    return { ...fields, ...(newKey !== '' ? { key: newKey } : {}) };
  });
}

/** The list's quick switches: status (its abilities follow), priority (copied to its abilities) or weight. */
export async function patchChannel(
  context: AppContext,
  id: number,
  patch: { status?: number; priority?: number; weight?: number },
): Promise<ChannelRow> {
  return rewriteChannel(context, id, () => patch);
}

/**
 * Changes one channel and its abilities in one transaction, then tells the routers; `change` sees the stored
 * row (and may refuse it) and answers the columns to set. Returns the row as stored.
 */
async function rewriteChannel(
  context: AppContext,
  id: number,
  change: (existing: ChannelRow) => Partial<ChannelRow>,
): Promise<ChannelRow> {
  const updated = await context.database.db.transaction().execute(async (transaction: Db) => {
    const existing = await findChannelById(transaction, id);
    if (!existing) throw channelNotFound();
    await transaction.updateTable('channels').set(change(existing)).where('id', '=', id).execute();
    const stored = await findChannelById(transaction, id);
    if (!stored) throw channelNotFound();
    await replaceAbilities(transaction, stored);
    return stored;
  });
  await announce(context, [id]);
  return updated;
}

/** Deletes a channel and its abilities together; deleting a missing id succeeds (as one-api). */
export async function deleteChannel(context: AppContext, id: number): Promise<void> {
  await context.database.db.transaction().execute((transaction: Db) => deleteChannelsWithAbilities(transaction, [id]));
  await announce(context, [id]);
}

/** Deletes every manually or automatically disabled channel with its abilities; returns how many went. */
export async function deleteDisabledChannels(context: AppContext): Promise<number> {
  const { count, ids } = await context.database.db.transaction().execute(async (transaction: Db) => {
    const disabled = await findDisabledChannelIds(transaction);
    return { count: await deleteChannelsWithAbilities(transaction, disabled), ids: disabled };
  });
  await announce(context, ids);
  return count;
}
