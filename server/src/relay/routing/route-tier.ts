import type { RoutedChannel } from './channel-router.js';

/** The tier's channels in a fixed order with their running weight totals, for a draw by binary search. */
interface Draw {
  channels: RoutedChannel[];
  /** `runningWeights[i]`: the weights of channels 0..i summed. */
  runningWeights: number[];
}

/**
 * The enabled channels of one (group, model) at one priority. A channel joins or leaves in constant time (a
 * channel write moves only its own entries); a draw costs O(log n) whatever the tier's size, and only a
 * retry that excludes some of this tier's channels walks them.
 */
export class RouteTier {
  private readonly members = new Map<number, RoutedChannel>();
  /** Built at the first draw after a change. */
  private draw: Draw | undefined;

  constructor(readonly priority: number) {}

  get size(): number {
    return this.members.size;
  }

  channels(): RoutedChannel[] {
    return [...this.members.values()];
  }

  add(channel: RoutedChannel): void {
    this.members.set(channel.row.id, channel);
    this.draw = undefined;
  }

  /** Answers whether the channel was there. */
  delete(channelId: number): boolean {
    if (!this.members.delete(channelId)) return false;
    this.draw = undefined;
    return true;
  }

  /**
   * The `favourite` when it is here and not excluded; else a weighted random draw among the channels not in
   * `exclude`; undefined when every channel here is excluded.
   */
  pick(exclude: ReadonlySet<number>, favourite?: number): RoutedChannel | undefined {
    if (favourite !== undefined && !exclude.has(favourite)) {
      const kept = this.members.get(favourite);
      if (kept) return kept;
    }
    let excludedHere = 0;
    for (const id of exclude) if (this.members.has(id)) excludedHere += 1;
    if (excludedHere === this.members.size) return undefined;
    if (excludedHere > 0) return weightedPick([...this.members.values()].filter((c) => !exclude.has(c.row.id)));
    const draw = (this.draw ??= drawOf([...this.members.values()]));
    const point = Math.random() * draw.runningWeights[draw.runningWeights.length - 1]!;
    let low = 0;
    let high = draw.channels.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (draw.runningWeights[middle]! > point) high = middle;
      else low = middle + 1;
    }
    return draw.channels[low];
  }
}

function drawOf(channels: RoutedChannel[]): Draw {
  let total = 0;
  return { channels, runningWeights: channels.map((channel) => (total += channel.weight)) };
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
