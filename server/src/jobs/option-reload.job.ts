import type { Job } from './job.js';

/** Re-reads options from the database every SYNC_FREQUENCY seconds, a safety net behind the bus. */
export const optionReloadJob: Job = {
  name: 'option-reload',
  runOnSlaves: true,
  intervalSeconds: (context) => context.config.SYNC_FREQUENCY,
  run: (context) => context.options.reload(context.database.db),
};
