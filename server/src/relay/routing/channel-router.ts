import type { AppContext } from '../../context.js';
import { ChannelStatus } from '../../domain/channel/channel.constants.js';
import type { ChannelRow } from '../../db/tables.js';
import type { Adaptor, ChannelSettings } from '../adaptor.js';
import { describeChannelType } from '../channel-types.js';
import { channelSettings, modelMapping } from './channel-settings.js';
import { RouteTier } from './route-tier.js';

/** A channel as the router hands it out: the row plus everything derived from it once per read. */
export interface RoutedChannel {
  row: ChannelRow;
  settings: ChannelSettings;
  mapping: Record<string, string>;
  adaptor: Adaptor | null;
  /** Selection weight: the channel's weight, with 0 (unset) counting as 1. */
  weight: number;
  priority: number;
}

const splitList = (text: string | null | undefined) => [
  ...new Set(
    (text ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
];

/** Channel ids per read of a refresh: far below every engine's placeholder limit. */
const idsPerRead = 500;

/** Reads waiting to start: every request made before the batch starts joins it. */
interface ReadBatch {
  everything: boolean;
  ids: Set<number>;
  done: Promise<void>;
}

function routedChannel(row: ChannelRow): RoutedChannel {
  return {
    row,
    settings: channelSettings(row),
    mapping: modelMapping(row),
    adaptor: describeChannelType(row.type).adaptor,
    weight: Number(row.weight ?? 0) > 0 ? Number(row.weight) : 1,
    priority: Number(row.priority ?? 0),
  };
}

/**
 * The in-memory routing snapshot: group → model → priority tiers of enabled channels. A channel write
 * re-reads only the channels it changed and moves only their entries (this node's writes await that before
 * they answer; other nodes follow the bus message, which names the channel), so writing a channel and
 * routing a call cost the same with 1 or 2,000 channels; the whole table is read at start, on a resync and
 * every SYNC_FREQUENCY seconds. Selection never touches the database.
 *
 * Reads run one at a time, in the order asked: a read asked for while one runs waits for it, and everyone
 * asking meanwhile joins that waiting read, so a read that began before a write can never replace what a
 * later read of the same channel found, and a burst of changes costs at most two reads.
 */
export class ChannelRouter {
  private channels = new Map<number, RoutedChannel>();
  private routes = new Map<string, Map<string, RouteTier[]>>();
  private reloadTimer: NodeJS.Timeout | undefined;
  /** The end of the chain of reads (never rejects). */
  private tail: Promise<void> = Promise.resolve();
  /** The batch that has not started its read yet. */
  private waiting: ReadBatch | undefined;

  constructor(private readonly context: AppContext) {}

  /**
   * Rebuilds the snapshot from a read of every channel that starts after this call: a write committed before
   * the call is in the snapshot once the promise resolves. Rejects when that read fails (the old snapshot
   * stays).
   */
  reload(): Promise<void> {
    return this.enqueue('everything');
  }

  /**
   * Re-reads these channels (a created, changed or deleted one) in a read that starts after this call, and
   * moves their routes alone. Rejects when that read fails (their old routes stay).
   */
  refresh(ids: readonly number[]): Promise<void> {
    return this.enqueue(ids);
  }

  private enqueue(what: readonly number[] | 'everything'): Promise<void> {
    let batch = this.waiting;
    if (!batch) {
      const created: ReadBatch = { everything: false, ids: new Set(), done: Promise.resolve() };
      created.done = this.tail.then(() => {
        if (this.waiting === created) this.waiting = undefined;
        return this.read(created);
      });
      this.tail = created.done.catch(() => undefined);
      this.waiting = created;
      batch = created;
    }
    if (what === 'everything') batch.everything = true;
    else for (const id of what) batch.ids.add(id);
    return batch.done;
  }

  private async read(batch: ReadBatch): Promise<void> {
    const { db } = this.context.database;
    if (batch.everything) {
      const rows = await db.selectFrom('channels').selectAll().execute();
      this.channels = new Map();
      this.routes = new Map();
      for (const row of rows) this.place(routedChannel(row));
      return;
    }
    const ids = [...batch.ids];
    const rows: ChannelRow[] = [];
    for (let start = 0; start < ids.length; start += idsPerRead)
      rows.push(
        ...(await db
          .selectFrom('channels')
          .selectAll()
          .where('id', 'in', ids.slice(start, start + idsPerRead))
          .execute()),
      );
    // Applied together, after every read: a failed read leaves all of them as they were.
    for (const id of ids) this.remove(id);
    for (const row of rows) this.place(routedChannel(row));
  }

  /** Adds a channel to the snapshot, and to the routes of its groups and models when it is enabled. */
  private place(channel: RoutedChannel): void {
    this.channels.set(channel.row.id, channel);
    if (channel.row.status !== ChannelStatus.Enabled) return;
    for (const group of splitList(channel.row.group)) {
      let models = this.routes.get(group);
      if (!models) this.routes.set(group, (models = new Map()));
      for (const model of splitList(channel.row.models)) {
        const tiers = models.get(model) ?? [];
        let tier = tiers.find((candidate) => candidate.priority === channel.priority);
        if (!tier) {
          tier = new RouteTier(channel.priority);
          tiers.push(tier);
          tiers.sort((a, b) => b.priority - a.priority);
          models.set(model, tiers);
        }
        tier.add(channel);
      }
    }
  }

  /** Takes a channel out of the routes it is in (its row says which), and out of the snapshot. */
  private remove(channelId: number): void {
    this.unroute(channelId);
    this.channels.delete(channelId);
  }

  private unroute(channelId: number): void {
    const channel = this.channels.get(channelId);
    if (!channel) return;
    for (const group of splitList(channel.row.group)) {
      const models = this.routes.get(group);
      if (!models) continue;
      for (const model of splitList(channel.row.models)) {
        const tiers = models.get(model);
        const tier = tiers?.find((candidate) => candidate.priority === channel.priority);
        if (!tiers || !tier?.delete(channelId) || tier.size > 0) continue;
        if (tiers.length === 1) models.delete(model);
        else tiers.splice(tiers.indexOf(tier), 1);
      }
    }
  }

  /**
   * Follows a `channels` message of the bus: the named channel is re-read, and a message without one (a
   * resync) reloads every channel. Logs a failure instead of throwing; settles after the read.
   */
  follow(key: string): Promise<void> {
    const id = Number(key);
    const read = key !== '' && Number.isInteger(id) ? this.refresh([id]) : this.reload();
    return read.catch((error: unknown) =>
      this.context.logger.error({ err: error, channel: key }, 'channel snapshot reload failed'),
    );
  }

  /**
   * Reloads every channel after `delayMs` (at once by default), logging a failure instead of throwing; the
   * returned promise settles after the reload.
   */
  scheduleReload(delayMs = 0): Promise<void> {
    if (delayMs <= 0) return this.follow('');
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    return new Promise((resolve) => {
      this.reloadTimer = setTimeout(() => {
        this.reloadTimer = undefined;
        void this.follow('').finally(resolve);
      }, delayMs);
      this.reloadTimer.unref();
    });
  }

  /** Waits for the reads under way or waiting (tests, shutdown). */
  async settled(): Promise<void> {
    await this.tail;
  }

  stop(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
  }

  /**
   * Takes a channel out of this node's routes at once, ahead of the re-read that its disable triggers: the
   * relay's automatic disable calls it before writing, so calls arriving meanwhile go elsewhere.
   */
  withdraw(channelId: number): void {
    this.unroute(channelId);
  }

  /** Channels in the current snapshot (enabled or not), for /metrics. */
  get size(): number {
    return this.channels.size;
  }

  /** Any channel by id, enabled or not (forced channels). */
  channel(id: number): RoutedChannel | undefined {
    return this.channels.get(id);
  }

  /**
   * Picks a channel for a group and model: the highest priority tier that still has channels not yet tried
   * in this request, then a weighted random draw inside that tier, unless the `favourite` (a conversation's
   * channel) is among that tier's candidates: a sticky session never outranks a higher tier.
   */
  select(group: string, model: string, exclude: ReadonlySet<number>, favourite?: number): RoutedChannel | undefined {
    const tiers = this.routes.get(group)?.get(model);
    if (!tiers) return undefined;
    for (const tier of tiers) {
      const picked = tier.pick(exclude, favourite);
      if (picked) return picked;
    }
    return undefined;
  }

  /** Every enabled channel of the group that serves the model, highest priority first (what pricing lists). */
  serving(group: string, model: string): RoutedChannel[] {
    return (this.routes.get(group)?.get(model) ?? []).flatMap((tier) => tier.channels());
  }

  /** Models with at least one enabled channel in the group, ascending. */
  modelsOfGroup(group: string): string[] {
    return [...(this.routes.get(group)?.keys() ?? [])].sort();
  }
}
