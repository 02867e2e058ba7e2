import { backfillStep } from '../domain/log/log-rollup.js';
import type { Job } from './job.js';

/** How long one run may take, in steps of a few milliseconds each with the event loop free between them. */
const runBudgetMs = 250;

/**
 * The master, every 2 seconds until done: rolls up the logs that were there before the rollups (a migrated
 * one-api install, a restore), newest first, without holding the event loop (decision 0018).
 */
export const logRollupBackfillJob: Job = {
  name: 'log-rollup-backfill',
  intervalSeconds: () => 2,
  run: async (context, signal) => {
    const { db, dialect } = context.logDatabase;
    const started = Date.now();
    while (!signal.aborted && Date.now() - started < runBudgetMs) {
      if (await backfillStep(db, dialect)) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  },
};
