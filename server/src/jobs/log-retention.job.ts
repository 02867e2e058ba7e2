import { retentionEnabled, runLogRetention } from '../domain/log/log-retention.js';
import type { Job } from './job.js';

/**
 * Hourly on the master: deletes the logs (per type) and the consume rollups older than their retention options,
 * in slices that leave the relay responsive. Off while every option is 0, the default.
 */
export const logRetentionJob: Job = {
  name: 'log-retention',
  intervalSeconds: () => 3600,
  async run(context, signal) {
    if (!retentionEnabled(context)) return;
    const result = await runLogRetention(context, signal);
    if (!result) {
      context.logger.info({ job: 'log-retention' }, 'log retention skipped: a log cleanup is already running');
      return;
    }
    context.logger.info({ job: 'log-retention', removed: result }, 'log retention applied');
  },
};
