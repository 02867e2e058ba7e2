import type { AppContext } from '../../context.js';
import { ChannelStatus } from '../../domain/channel/channel.constants.js';
import type { ChannelRow } from '../../db/tables.js';
import type { Adaptor, ChannelSettings } from '../adaptor.js';
import { describeChannelType } from '../channel-types.js';
import { channelSettings, modelMapping } from './channel-settings.js';

/** A channel as the router hands it out: the row plus everything derived from it once per reload. */
export interface RoutedChannel {
  row: ChannelRow;
  settings: ChannelSettings;
  mapping: Record<string, string>;
  adaptor: Adaptor | null;
  /** Selection weight: the channel's weight, with 0 (unset) counting as 1. */
  weight: number;
  priority: number;
}

/** Channels of one priority, highest tiers first. */
type Tier = RoutedChannel[];

const splitList = (text: string | null | undefined) => [
  ...new Set(
    (text ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ),
];

/**
 * The in-memory routing snapshot: group → model → priority tiers of enabled channels, rebuilt from the
 * channels table when a channel changes (this node's writes await the rebuild before they answer; other
 * nodes rebuild on the bus message) and every SYNC_FREQUENCY seconds. Selection never touches the database.
 *
 * Rebuilds run one at a time: a rebuild asked for while one runs is queued behind it and shared by everyone
 * who asks meanwhile, so a rebuild that read the table before a write can never replace a snapshot that
 * includes it, and a burst of changes costs at most two reads.
 */
export class ChannelRouter {
  private channels = new Map<number, RoutedChannel>();
  private routes = new Map<string, Map<string, Tier[]>>();
  private reloadTimer: NodeJS.Timeout | undefined;
  /** The rebuild reading the table now. */
  private running: Promise<void> | undefined;
  /** The rebuild that starts when `running` ends; everyone asking meanwhile waits for it. */
  private queued: Promise<void> | undefined;

  constructor(private readonly context: AppContext) {}

  /**
   * Rebuilds the snapshot from a read that starts after this call: a write committed before the call is in
   * the snapshot once the promise resolves. Rejects when that read fails (the old snapshot stays).
   */
  reload(): Promise<void> {
    if (this.queued) return this.queued;
    const running = this.running;
    if (!running) return this.start();
    const next = running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    this.queued = next;
    return next;
  }

  private start(): Promise<void> {
    const run = this.rebuild().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  /** Reads every channel and swaps in a new snapshot. */
  private async rebuild(): Promise<void> {
    const rows = await this.context.database.db.selectFrom('channels').selectAll().execute();
    const channels = new Map<number, RoutedChannel>();
    const routes = new Map<string, Map<string, Map<number, RoutedChannel[]>>>();
    for (const row of rows) {
      const routed: RoutedChannel = {
        row,
        settings: channelSettings(row),
        mapping: modelMapping(row),
        adaptor: describeChannelType(row.type).adaptor,
        weight: Number(row.weight ?? 0) > 0 ? Number(row.weight) : 1,
        priority: Number(row.priority ?? 0),
      };
      channels.set(row.id, routed);
      if (row.status !== ChannelStatus.Enabled) continue;
      for (const group of splitList(row.group)) {
        const models = routes.get(group) ?? new Map<string, Map<number, RoutedChannel[]>>();
        routes.set(group, models);
        for (const model of splitList(row.models)) {
          const tiers = models.get(model) ?? new Map<number, RoutedChannel[]>();
          models.set(model, tiers);
          const tier = tiers.get(routed.priority) ?? [];
          tier.push(routed);
          tiers.set(routed.priority, tier);
        }
      }
    }
    this.routes = new Map(
      [...routes].map(([group, models]) => [
        group,
        new Map(
          [...models].map(([model, tiers]) => [model, [...tiers].sort((a, b) => b[0] - a[0]).map(([, tier]) => tier)]),
        ),
      ]),
    );
    this.channels = channels;
  }

  /**
   * Reloads after `delayMs` (at once by default: the bus message of another node's write), logging a
   * failure instead of throwing; the returned promise settles after the reload.
   */
  scheduleReload(delayMs = 0): Promise<void> {
    const reloadLogged = () =>
      this.reload().catch((error: unknown) =>
        this.context.logger.error({ err: error }, 'channel snapshot reload failed'),
      );
    if (delayMs <= 0) return reloadLogged();
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    return new Promise((resolve) => {
      this.reloadTimer = setTimeout(() => {
        this.reloadTimer = undefined;
        void reloadLogged().finally(resolve);
      }, delayMs);
      this.reloadTimer.unref();
    });
  }

  /** Waits for the reloads under way or queued (tests, shutdown). */
  async settled(): Promise<void> {
    await this.queued?.catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  stop(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
  }

  /**
   * Takes a channel out of this node's routes at once, ahead of the rebuild that its disable triggers: the
   * relay's automatic disable calls it before writing, so calls arriving meanwhile go elsewhere.
   */
  withdraw(channelId: number): void {
    const routes = new Map<string, Map<string, Tier[]>>();
    for (const [group, models] of this.routes) {
      const kept = new Map<string, Tier[]>();
      for (const [model, tiers] of models) {
        const remaining = tiers
          .map((tier) => tier.filter((channel) => channel.row.id !== channelId))
          .filter((tier) => tier.length > 0);
        if (remaining.length > 0) kept.set(model, remaining);
      }
      routes.set(group, kept);
    }
    this.routes = routes;
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
      const candidates = tier.filter((channel) => !exclude.has(channel.row.id));
      if (candidates.length === 0) continue;
      const kept = favourite === undefined ? undefined : candidates.find((channel) => channel.row.id === favourite);
      return kept ?? weightedPick(candidates);
    }
    return undefined;
  }

  /** Models with at least one enabled channel in the group, ascending. */
  modelsOfGroup(group: string): string[] {
    return [...(this.routes.get(group)?.keys() ?? [])].sort();
  }
}

function weightedPick(candidates: RoutedChannel[]): RoutedChannel {
  const total = candidates.reduce((sum, channel) => sum + channel.weight, 0);
  let point = Math.random() * total;
  for (const channel of candidates) {
    point -= channel.weight;
    if (point < 0) return channel;
  }
  return candidates[candidates.length - 1]!;
}
