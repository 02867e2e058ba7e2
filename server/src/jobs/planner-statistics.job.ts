import { refreshPlannerStatistics } from '../db/connect.js';
import type { Job } from './job.js';

/** Hourly on the master, SQLite only: the query planner's statistics follow the tables as they grow. */
export const plannerStatisticsJob: Job = {
  name: 'planner-statistics',
  intervalSeconds: (context) => (context.database.sqlite || context.logDatabase.sqlite ? 3600 : 0),
  run: async (context) => {
    for (const handle of new Set([context.database, context.logDatabase]))
      if (handle.sqlite) refreshPlannerStatistics(handle.sqlite);
  },
};
