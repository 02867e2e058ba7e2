import type { AbilityRow, ChannelRow, Db } from '../../db/tables.js';
import { splitList } from '@modelgate/wire';
import { ChannelStatus, defaultChannelGroup } from './channel.constants.js';

// Part of the API contract (how the channel schemas clean lists): defined with the wire schemas.
export { splitList };

/** The groups a channel serves; no group at all means the default group. */
export function channelGroups(group: string | null | undefined): string[] {
  const groups = splitList(group);
  return groups.length > 0 ? groups : [defaultChannelGroup];
}

type AbilitySource = Pick<ChannelRow, 'id' | 'models' | 'group' | 'status' | 'priority'>;

/**
 * The routing rows of a channel: one per (group, model), enabled when the channel is, carrying its priority.
 * A channel without models (type 43, Proxy) gets none: it is reached by id, not by model.
 */
export function abilityRowsOf(channel: AbilitySource): AbilityRow[] {
  const models = splitList(channel.models);
  // 1/0 rather than true/false: SQLite cannot bind booleans, and PostgreSQL reads '1' as true.
  const enabled = channel.status === ChannelStatus.Enabled ? 1 : 0;
  return channelGroups(channel.group).flatMap((group) =>
    models.map((model) => ({ group, model, channel_id: channel.id, enabled, priority: channel.priority ?? 0 })),
  );
}

/** Rows per INSERT: five parameters each keeps us far below SQLite's and MySQL's placeholder limits. */
const insertChunkSize = 500;

/**
 * Replaces a channel's abilities with the ones derived from its row. Call it inside the transaction that
 * wrote the channel: readers then see either the old set or the new one, never an empty gap
 * (one-api deleted and re-inserted outside any transaction).
 */
export async function replaceAbilities(db: Db, channel: AbilitySource): Promise<void> {
  await db.deleteFrom('abilities').where('channel_id', '=', channel.id).execute();
  const rows = abilityRowsOf(channel);
  for (let start = 0; start < rows.length; start += insertChunkSize) {
    await db
      .insertInto('abilities')
      .values(rows.slice(start, start + insertChunkSize))
      .execute();
  }
}
