import { sweepReservations } from '../relay/billing/reservation-sweeper.js';
import type { Job } from './job.js';

/** The master, every heartbeat interval: gives back the reservations of nodes that stopped beating. */
export const reservationSweepJob: Job = {
  name: 'reservation-sweep',
  intervalSeconds: (context) => context.config.NODE_HEARTBEAT_INTERVAL,
  run: async (context) => {
    await sweepReservations(context, 'dead-nodes');
  },
};
