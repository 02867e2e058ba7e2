import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/tables.js';
import { medianFromHistogram, type LatencyRange } from './latency-buckets.js';
import { RelayStatsAggregator, type RelayOutcome } from './relay-stats.aggregator.js';
import {
  addOutcomeCells,
  listChannelSummaries,
  modelsOfGroup,
  pruneOutcomes,
  sumOutcomes,
  type OutcomeSums,
} from './relay-stats.repository.js';

const aggregators = new WeakMap<AppContext, RelayStatsAggregator>();

/** Rows older than this are pruned by the flush job; the status page reads the last day only. */
export const RELAY_OUTCOME_RETENTION_SECONDS = 2 * 86_400;
const HOUR_SECONDS = 3600;
const DAY_SECONDS = 86_400;

function aggregatorOf(context: AppContext): RelayStatsAggregator {
  let aggregator = aggregators.get(context);
  if (!aggregator) {
    aggregator = new RelayStatsAggregator();
    aggregators.set(context, aggregator);
    // Whatever is still in memory at shutdown is written before the databases close.
    context.shutdownTasks.push(async () => {
      await flushRelayStats(context);
    });
  }
  return aggregator;
}

/**
 * Records one relay attempt (success or failure, with its elapsed time) for the service status page.
 * Cheap and synchronous: counts stay in memory until the flush job writes them.
 */
export function recordRelayOutcome(context: AppContext, outcome: RelayOutcome): void {
  aggregatorOf(context).record(outcome);
}

/** Writes the collected counts; on a database error they are kept for the next flush. */
export async function flushRelayStats(context: AppContext): Promise<number> {
  const aggregator = aggregators.get(context);
  if (!aggregator || aggregator.size === 0) return 0;
  const cells = aggregator.drain();
  try {
    return await addOutcomeCells(context.database.db, context.database.dialect, cells);
  } catch (error) {
    aggregator.restore(cells.slice((error as { written?: number }).written ?? 0));
    throw error;
  }
}

/** Drops outcome rows past the retention window. */
export const pruneRelayStats = (context: AppContext, nowSeconds: number) =>
  pruneOutcomes(context.database.db, nowSeconds - RELAY_OUTCOME_RETENTION_SECONDS);

/** Requests, success rate and the latency bucket holding the median of one window. */
export interface OutcomeWindow {
  requests: number;
  success_rate: number | null;
  median_latency: LatencyRange | null;
}

const emptyWindow: OutcomeWindow = { requests: 0, success_rate: null, median_latency: null };

function toWindow(sums: OutcomeSums | undefined): OutcomeWindow {
  if (!sums) return emptyWindow;
  const requests = sums.successCount + sums.failureCount;
  return {
    requests,
    success_rate: requests ? sums.successCount / requests : null,
    median_latency: medianFromHistogram(sums.latency),
  };
}

const byKey = (rows: OutcomeSums[]) => new Map(rows.map((row) => [row.key, row]));

export interface ServiceStatusReport {
  models: Array<{ model: string; available: boolean; last_hour: OutcomeWindow; last_day: OutcomeWindow }>;
  channels?: Array<{
    channel_id: number;
    name: string;
    status: number;
    last_hour: OutcomeWindow;
    last_day: OutcomeWindow;
  }>;
}

/**
 * The service status of the models a user's group may call (served now = an enabled channel exists), with
 * success rate and median latency over the last hour and day; admins also get every channel. No keys,
 * addresses or other secrets.
 */
export async function serviceStatus(
  context: AppContext,
  user: UserRow,
  includeChannels: boolean,
  nowSeconds: number,
): Promise<ServiceStatusReport> {
  const db = context.database.db;
  const group = user.group || 'default';
  const [models, hourByModel, dayByModel] = await Promise.all([
    modelsOfGroup(db, group),
    sumOutcomes(db, nowSeconds - HOUR_SECONDS, 'model_name').then(byKey),
    sumOutcomes(db, nowSeconds - DAY_SECONDS, 'model_name').then(byKey),
  ]);
  const report: ServiceStatusReport = {
    models: models.all.map((model) => ({
      model,
      available: models.enabled.has(model),
      last_hour: toWindow(hourByModel.get(model)),
      last_day: toWindow(dayByModel.get(model)),
    })),
  };
  if (!includeChannels) return report;
  const [channels, hourByChannel, dayByChannel] = await Promise.all([
    listChannelSummaries(db),
    sumOutcomes(db, nowSeconds - HOUR_SECONDS, 'channel_id').then(byKey),
    sumOutcomes(db, nowSeconds - DAY_SECONDS, 'channel_id').then(byKey),
  ]);
  report.channels = channels.map((channel) => ({
    channel_id: channel.id,
    name: channel.name,
    status: channel.status,
    last_hour: toWindow(hourByChannel.get(channel.id)),
    last_day: toWindow(dayByChannel.get(channel.id)),
  }));
  return report;
}
