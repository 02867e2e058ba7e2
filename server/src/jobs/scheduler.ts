import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import type { Job } from './job.js';
import { batchUpdateJob } from './batch-update.job.js';
import { channelTestJob } from './channel-test.job.js';
import { logRetentionJob } from './log-retention.job.js';
import { logRollupBackfillJob } from './log-rollup-backfill.job.js';
import { nodeHeartbeatJob } from './node-heartbeat.job.js';
import { optionReloadJob } from './option-reload.job.js';
import { plannerStatisticsJob } from './planner-statistics.job.js';
import { relayStatsFlushJob } from './relay-stats-flush.job.js';
import { reservationSweepJob } from './reservation-sweep.job.js';
import { responseExpiryJob } from './response-expiry.job.js';

/** Every background job of the server. */
export const jobs: Job[] = [
  optionReloadJob,
  channelTestJob,
  batchUpdateJob,
  relayStatsFlushJob,
  nodeHeartbeatJob,
  reservationSweepJob,
  logRollupBackfillJob,
  logRetentionJob,
  plannerStatisticsJob,
  responseExpiryJob,
];

/**
 * Takes the cluster-wide lock of one period. When Redis does not answer, the job runs on this node
 * (answers true): only master nodes run locked jobs, and a run twice in one period on two masters (the
 * channel test) costs a few test requests, while skipping rounds for the whole outage would leave a dead
 * channel enabled, or a recovered one disabled, until Redis returns.
 */
async function acquireJobLock(context: AppContext, redis: Redis, name: string, seconds: number): Promise<boolean> {
  try {
    return (await redis.set(`job:${name}`, '1', 'EX', Math.max(1, seconds - 1), 'NX')) === 'OK';
  } catch (error) {
    context.logger.warn({ err: error, job: name }, 'job lock unavailable (redis unreachable): running on this node');
    return true;
  }
}

export interface RunningJobs {
  stop(): Promise<void>;
}

/**
 * Runs each enabled job on its interval, never two runs of one job at once. With Redis, a lock held for the
 * interval lets only one node run a job per period (while Redis is away, see acquireJobLock).
 */
export function startJobs(context: AppContext, selected: Job[] = jobs): RunningJobs {
  const controller = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();

  for (const job of selected) {
    const seconds = job.intervalSeconds(context);
    if (seconds <= 0) continue;
    if (!context.config.isMaster && !job.runOnSlaves) continue;
    let busy = false;
    const tick = async () => {
      if (busy || controller.signal.aborted) return;
      busy = true;
      try {
        const { redis } = context;
        if (redis && !job.runOnSlaves && !(await acquireJobLock(context, redis, job.name, seconds))) return;
        await job.run(context, controller.signal);
      } catch (error) {
        context.logger.error({ err: error, job: job.name }, 'job failed');
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => {
      const run = tick();
      running.add(run);
      void run.finally(() => running.delete(run));
    }, seconds * 1000);
    timer.unref();
    timers.push(timer);
  }

  return {
    async stop() {
      controller.abort();
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
