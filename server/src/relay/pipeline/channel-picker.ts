import { ChannelStatus } from '../../domain/channel/channel.constants.js';
import type { Adaptor } from '../adaptor.js';
import { describeChannelType } from '../channel-types.js';
import { relayErrors } from '../relay-errors.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import { UpstreamError } from '../upstream-error.js';
import type { RelayJob } from './relay-job.js';

/** The channel forced with `sk-key-<id>`; group and model are not checked, as in one-api. */
function forcedChannel(job: RelayJob): RoutedChannel {
  if (job.principal.badChannelSuffix !== undefined) throw relayErrors.invalidChannelId();
  const channel = job.runtime.router.channel(job.principal.forcedChannelId!);
  if (!channel) throw relayErrors.invalidChannelId();
  if (channel.row.status !== ChannelStatus.Enabled) throw relayErrors.channelDisabled();
  const only = job.channelLimit?.only;
  if (only && !only.accepts(channel)) throw only.refusal();
  return channel;
}

/** The router's first choice that `wanted` takes (a lower tier's wanted channel wins over a higher tier's other one). */
function firstWanted(
  job: RelayJob,
  group: string,
  tried: ReadonlySet<number>,
  wanted: (channel: RoutedChannel) => boolean,
): { channel?: RoutedChannel; passedOver: boolean } {
  const { router } = job.runtime;
  const skipped = new Set(tried);
  const favourite = job.session?.channelId;
  // Bounded: every turn excludes one more channel, and the router runs out.
  for (
    let channel = router.select(group, job.model, skipped, favourite);
    channel;
    channel = router.select(group, job.model, skipped, favourite)
  ) {
    if (wanted(channel)) return { channel, passedOver: skipped.size > tried.size };
    skipped.add(channel.row.id);
  }
  return { passedOver: skipped.size > tried.size };
}

/**
 * The router's next channel for the job within its limit: preferred channels first, then any it allows; in
 * the tier drawn from, the conversation's channel when it is there. A strict limit that leaves nothing on the
 * first try is refused.
 */
function nextChannel(job: RelayJob, group: string, tried: ReadonlySet<number>): RoutedChannel | undefined {
  const limit = job.channelLimit;
  if (!limit) return job.runtime.router.select(group, job.model, tried, job.session?.channelId);
  const { only, prefers } = limit;
  if (prefers) {
    const preferred = firstWanted(job, group, tried, (channel) => prefers(channel) && (!only || only.accepts(channel)));
    if (preferred.channel) return preferred.channel;
  }
  if (!only) return job.runtime.router.select(group, job.model, tried, job.session?.channelId);
  const { channel, passedOver } = firstWanted(job, group, tried, only.accepts);
  if (!channel && tried.size === 0 && passedOver) throw only.refusal();
  return channel;
}

/**
 * The channel for the job's next attempt: the one the client forced, else the router's next choice within
 * the job's limit that is not in `tried`; undefined when none is left.
 */
export function pickChannel(job: RelayJob, tried: ReadonlySet<number>): RoutedChannel | undefined {
  if (isForced(job)) return forcedChannel(job);
  return nextChannel(job, job.principal.user.group, tried);
}

/** Whether the client chose the channel (`sk-key-<id>`): then it alone is tried, once. */
export const isForced = (job: RelayJob) =>
  job.principal.forcedChannelId !== undefined || job.principal.badChannelSuffix !== undefined;

/** The channel's adaptor when it can serve this mode; otherwise a 501 that lets another channel try. */
export function adaptorFor(channel: RoutedChannel, job: RelayJob): Adaptor {
  const adaptor = channel.adaptor;
  if (adaptor && adaptor.modes.includes(job.mode)) return adaptor;
  const typeName = describeChannelType(channel.row.type).name;
  const error = relayErrors.typeNotSupported(typeName);
  throw new UpstreamError(
    { status: 501, message: error.text.en, type: 'one_api_error', param: null, code: error.code },
    { retryable: true },
  );
}
