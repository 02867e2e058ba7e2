import { backgroundSlicePacing } from '../db/sliced-delete.js';
import { deleteExpiredResponses } from '../domain/response/response.repository.js';
import { nowSeconds } from '../lib/time.js';
import type { Job } from './job.js';

/**
 * Hourly on the master: deletes the stored Responses API responses whose 30 days are over (reads already skip
 * them), in slices paced like the log retention's so the relay keeps its speed meanwhile.
 */
export const responseExpiryJob: Job = {
  name: 'response-expiry',
  intervalSeconds: () => 3600,
  async run(context, signal) {
    const { db, dialect } = context.database;
    const removed = await deleteExpiredResponses(db, nowSeconds(), { ...backgroundSlicePacing(dialect), signal });
    if (removed > 0) context.logger.info({ job: 'response-expiry', removed }, 'expired responses deleted');
  },
};
