import type { AppContext } from '../context.js';
import { provideChannelRelay } from '../domain/channel/channel-relay.js';
import { ChargeJournal } from './billing/charge-journal.js';
import { InFlightHolds, newNodeId } from './billing/in-flight.js';
import { QuotaBatcher } from './billing/quota-batcher.js';
import { flushBatch, SettlementWriter } from './billing/settlement-writer.js';
import { probeChannel } from './channel-probe.js';
import { ChannelSuccessRate } from './health/channel-success-rate.js';
import { UpstreamClient } from './pipeline/upstream-client.js';
import { ChannelRouter } from './routing/channel-router.js';
import { MemoryStickySessions, RedisStickySessions, type StickySessions } from './routing/sticky-sessions.js';

/** The relay's long-lived state for one server (one AppContext): HTTP pools, routing, batched counters. */
export interface RelayRuntime {
  client: UpstreamClient;
  router: ChannelRouter;
  /** Set when BATCH_UPDATE_ENABLED: settlements accumulate here until the batch-update job flushes them. */
  batcher: QuotaBatcher | null;
  /** Group commit of settlements and consume logs. */
  settlements: SettlementWriter;
  /** This process's id in `relay_nodes` and in the reservations it writes. */
  nodeId: string;
  /** What this node's calls in flight hold (trusted estimates, open reservation ids). */
  inFlight: InFlightHolds;
  /** Set when ENABLE_METRIC: recent outcomes per channel, to disable those that fail too often. */
  successRate: ChannelSuccessRate | null;
  /** Conversations kept on one channel: in Redis when configured (every node shares them), else here. */
  stickySessions: StickySessions;
}

const runtimes = new WeakMap<AppContext, RelayRuntime>();

/**
 * The relay state of this context, created on first use. The router follows the `channels` bus topic and
 * reloads every SYNC_FREQUENCY seconds; pools close and batches flush with the context.
 */
export function relayRuntime(context: AppContext): RelayRuntime {
  let runtime = runtimes.get(context);
  if (runtime) return runtime;
  const client = new UpstreamClient(context.config.RELAY_TIMEOUT * 1000);
  const router = new ChannelRouter(context);
  const batcher = context.config.BATCH_UPDATE_ENABLED ? new QuotaBatcher() : null;
  const nodeId = newNodeId(context.config);
  const settlements = new SettlementWriter(context, batcher, new ChargeJournal(context.config, nodeId));
  const { ENABLE_METRIC, METRIC_QUEUE_SIZE, METRIC_SUCCESS_RATE_THRESHOLD } = context.config;
  const successRate = ENABLE_METRIC ? new ChannelSuccessRate(METRIC_QUEUE_SIZE, METRIC_SUCCESS_RATE_THRESHOLD) : null;
  runtime = {
    client,
    router,
    batcher,
    settlements,
    successRate,
    nodeId,
    inFlight: new InFlightHolds(),
    stickySessions: context.redis ? new RedisStickySessions(context.redis, context.logger) : new MemoryStickySessions(),
  };
  runtimes.set(context, runtime);
  // The channel services re-read what they wrote and test channels through this runtime.
  provideChannelRelay(context, {
    refresh: (ids) => router.refresh(ids),
    probe: (channel, model) => probeChannel(context, client, channel, model),
  });
  context.bus.subscribe(({ topic, key }) => {
    if (topic === 'channels' || topic === 'channel') void router.follow(key);
  });
  const timer = setInterval(() => void router.scheduleReload(0), Math.max(context.config.SYNC_FREQUENCY, 1) * 1000);
  timer.unref();
  context.shutdownTasks.push(async () => {
    clearInterval(timer);
    router.stop();
    await settlements.drain();
    if (batcher) await flushBatch(context, batcher);
    await client.close();
  });
  return runtime;
}
