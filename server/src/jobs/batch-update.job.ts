import { flushBatch } from '../relay/billing/settlement-writer.js';
import { relayRuntime } from '../relay/runtime.js';
import type { Job } from './job.js';

/**
 * BATCH_UPDATE_ENABLED: writes the relay's accumulated balance and counter deltas every
 * BATCH_UPDATE_INTERVAL seconds. Runs on every node without the Redis job lock, because each node holds
 * its own deltas in memory (the last flush happens in the relay's shutdown task).
 */
export const batchUpdateJob: Job = {
  name: 'batch-update',
  runOnSlaves: true,
  intervalSeconds: (context) => (context.config.BATCH_UPDATE_ENABLED ? context.config.BATCH_UPDATE_INTERVAL : 0),
  run: async (context) => {
    const { batcher } = relayRuntime(context);
    if (batcher) await flushBatch(context, batcher);
  },
};
