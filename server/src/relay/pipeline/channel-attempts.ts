import { autoDisableChannel } from '../../domain/channel/channel-status.service.js';
import type { ResolvedPrice } from '../../domain/pricing/price.js';
import { isPriceMissing, resolvePrice } from '../../domain/pricing/resolve-price.js';
import { recordRelayOutcome } from '../../domain/relay-stats/relay-stats.service.js';
import { failureStatus, relayMetricsOf } from '../../metrics/index.js';
import { shouldDisableChannel } from '../../domain/channel/should-disable.js';
import { admitCall, finishCall } from '../limits/call-limits.js';
import { relayErrors } from '../relay-errors.js';
import type { RoutedChannel } from '../routing/channel-router.js';
import { UpstreamError, isUpstreamError, redactUpstreamError } from '../upstream-error.js';
import { isForced, pickChannel } from './channel-picker.js';
import { upstreamModelOf, type RelayJob } from './relay-job.js';

function disableInBackground(job: RelayJob, channel: RoutedChannel, reason: string): void {
  // Out of this node's routes now; the write and every node's rebuild follow.
  job.runtime.router.withdraw(channel.row.id);
  void autoDisableChannel(job.context, channel.row.id, channel.row.name, reason).catch((failure: unknown) =>
    job.context.logger.error({ err: failure, channelId: channel.row.id }, 'auto-disabling a channel failed'),
  );
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

/**
 * Disables the channel when the failure is fatal and the option is on; any other failure counts against
 * the channel's success rate when the metric is on. Never delays the request.
 */
function reportFailure(job: RelayJob, channel: RoutedChannel, error: UpstreamError): void {
  const { context } = job;
  const fatal =
    context.options.bool('AutomaticDisableChannelEnabled') &&
    shouldDisableChannel({ ...error.body, type: error.body.type, code: error.body.code ?? undefined });
  if (fatal) {
    disableInBackground(job, channel, `status code ${error.status}: ${error.body.message}`);
    return;
  }
  const metric = job.runtime.successRate;
  // A rejected request (400) or a client that left says nothing about the channel; counting them would let
  // any token holder disable a channel for everyone (one-api counts them).
  if (!metric || error.status === 400 || job.cancel.cancelled) return;
  const rate = metric.recordFailure(channel.row.id);
  if (rate === undefined) return;
  const reason = `最近 ${metric.size} 次请求成功率 ${percent(rate)} 低于阈值 ${percent(metric.threshold)}`;
  disableInBackground(job, channel, reason);
}

/**
 * A conversation moves to the channel that answered it (a new one, or after its channel failed); one that
 * stayed was extended by its lookup. The response the call produced points to the same channel.
 */
function recordSession(job: RelayJob, channelId: number): void {
  const session = job.session;
  if (!session) return;
  const keys: string[] = [];
  if (session.key && session.channelId !== channelId) keys.push(session.key);
  if (session.responseKey) keys.push(session.responseKey);
  if (keys.length > 0) job.runtime.stickySessions.record(keys, channelId, session.ttlSeconds);
}

/**
 * Runs `attempt` on a channel at its price, and on a retryable failure on other channels, up to RetryTimes
 * more: the highest priority tier first (the conversation's channel when the job names one and that tier has
 * it), lower tiers when it is used up, never a failed channel twice, never again after a client error or when
 * the client chose the channel. A channel on which nothing prices the model is passed over without an
 * attempt; when no channel could price it, the refusal answers. A final 429 says the group is saturated.
 */
export async function attemptOnChannels(
  job: RelayJob,
  attempt: (channel: RoutedChannel, price: ResolvedPrice) => Promise<void>,
): Promise<void> {
  // Charges this node cannot write wait outside the database only up to a small bound (settlement-writer.ts).
  if (job.runtime.settlements.refusesCalls) throw relayErrors.chargesNotWritten();
  // The caller's limits (issue 31): none set costs nothing; an admitted call gives its slots back at its end.
  const admitting = admitCall(job);
  if (!admitting) return attemptEach(job, attempt);
  const admission = await admitting;
  try {
    await attemptEach(job, attempt);
  } finally {
    await finishCall(job, admission);
  }
}

async function attemptEach(
  job: RelayJob,
  attempt: (channel: RoutedChannel, price: ResolvedPrice) => Promise<void>,
): Promise<void> {
  const forced = isForced(job);
  const retries = forced ? 0 : Math.max(0, Math.floor(job.context.options.number('RetryTimes')));
  // A forced channel wins over the conversation's; the session is then neither read nor moved.
  if (forced) job.session = undefined;
  const session = job.session;
  if (session?.key) session.channelId = await job.runtime.stickySessions.channelOf(session.key, session.ttlSeconds);
  const group = job.principal.user.group;
  const metric = job.runtime.successRate;
  const meter = relayMetricsOf(job.context);
  const tried = new Set<number>();
  let lastError: UpstreamError | undefined;
  let refusal: unknown;
  for (let index = 0; index <= retries;) {
    const channel = pickChannel(job, tried);
    if (!channel) break;
    tried.add(channel.row.id);
    // The price depends on the channel's type (and model mapping): another channel may have one.
    let price: ResolvedPrice;
    try {
      price = resolvePrice(job.context, upstreamModelOf(job, channel), channel.row.type, group);
    } catch (error) {
      if (!isPriceMissing(error)) throw error;
      refusal ??= error;
      // A forced channel is picked again and again: it alone was to be tried.
      if (forced) break;
      continue;
    }
    const first = index === 0;
    index++;
    const startedMs = Date.now();
    // One outcome per attempt for the service status page (a client that went away says nothing about the
    // channel) and /metrics (which counts it apart, as cancelled).
    const outcome = (success: boolean, thrown?: unknown) => {
      const elapsedMs = Date.now() - startedMs;
      meter?.attempt(
        job.model,
        channel.row.id,
        elapsedMs,
        job.cancel.cancelled ? 0 : success ? 200 : failureStatus(thrown),
      );
      if (job.cancel.cancelled) return;
      recordRelayOutcome(job.context, { model: job.model, channelId: channel.row.id, success, elapsedMs });
    };
    try {
      await attempt(channel, price);
      outcome(true);
      // As in one-api, only a first attempt's success counts for the metric.
      if (metric && first) metric.recordSuccess(channel.row.id);
      recordSession(job, channel.row.id);
      return;
    } catch (thrown) {
      outcome(false, thrown);
      if (!isUpstreamError(thrown)) throw thrown;
      // Upstreams echo keys and URLs in their errors; none of it reaches the client, the log or a disable reason.
      const error = redactUpstreamError(thrown, channel.settings);
      lastError = error;
      job.context.logger.warn(
        { channelId: channel.row.id, status: error.status, message: error.message, requestId: job.requestId },
        'relay attempt failed',
      );
      reportFailure(job, channel, error);
      if (!error.retryable || job.cancel.cancelled) break;
    }
  }
  if (!lastError) throw refusal ?? relayErrors.noChannel(group, job.model);
  if (lastError.status === 429) throw relayErrors.upstreamSaturated();
  throw lastError;
}
