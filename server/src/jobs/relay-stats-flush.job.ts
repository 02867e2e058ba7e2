import { flushRelayStats, pruneRelayStats } from '../domain/relay-stats/relay-stats.service.js';
import { nowSeconds } from '../lib/time.js';
import type { Job } from './job.js';

const FLUSH_INTERVAL_SECONDS = 5;
const PRUNE_EVERY_SECONDS = 3600;
let lastPruneSeconds = 0;

/** Writes the relay outcome counts collected in memory every few seconds (every node its own) and prunes old rows hourly. */
export const relayStatsFlushJob: Job = {
  name: 'relay-stats-flush',
  runOnSlaves: true,
  intervalSeconds: () => FLUSH_INTERVAL_SECONDS,
  async run(context) {
    await flushRelayStats(context);
    const now = nowSeconds();
    if (context.config.isMaster && now - lastPruneSeconds >= PRUNE_EVERY_SECONDS) {
      lastPruneSeconds = now;
      await pruneRelayStats(context, now);
    }
  },
};
