import { sweepReservations } from '../relay/billing/reservation-sweeper.js';
import { nowSeconds } from '../lib/time.js';
import type { Job } from './job.js';

/**
 * The master, twice per heartbeat interval (a dead node's holds come back at most half an interval after its
 * lease ran out): gives back the reservations of nodes that stopped beating, and forgets settlement markers
 * older than a day (they only matter for the next write after a failed COMMIT).
 */
export const reservationSweepJob: Job = {
  name: 'reservation-sweep',
  intervalSeconds: (context) => context.config.NODE_HEARTBEAT_INTERVAL / 2,
  run: async (context) => {
    await sweepReservations(context, 'dead-nodes');
    await context.database.db
      .deleteFrom('settlement_writes')
      .where('created_at', '<', nowSeconds() - 86_400)
      .execute();
  },
};
