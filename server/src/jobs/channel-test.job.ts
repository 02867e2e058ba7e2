import { startBulkTest } from '../domain/channel/channel-bulk-test.service.js';
import type { Job } from './job.js';

/**
 * Tests every channel each CHANNEL_TEST_FREQUENCY seconds (unset = off), applying the automatic disable and
 * enable rules. A run already going on (started from the console, or on another node) is left alone.
 * Stopping the scheduler stops the run between two channels.
 */
export const channelTestJob: Job = {
  name: 'channel-test',
  intervalSeconds: (context) => context.config.CHANNEL_TEST_FREQUENCY ?? 0,
  async run(context, signal) {
    const run = await startBulkTest(context, 'all', false, signal);
    await run?.finished;
  },
};
