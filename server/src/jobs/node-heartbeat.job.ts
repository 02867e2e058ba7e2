import { beat, sweepReservations } from '../relay/billing/reservation-sweeper.js';
import type { Job } from './job.js';

/**
 * Every node, every NODE_HEARTBEAT_INTERVAL seconds: tells the others it is alive (its reservations belong to
 * calls still running), and gives back any reservation of its own that no call holds any more.
 */
export const nodeHeartbeatJob: Job = {
  name: 'node-heartbeat',
  runOnSlaves: true,
  intervalSeconds: (context) => context.config.NODE_HEARTBEAT_INTERVAL,
  run: async (context) => {
    await beat(context);
    await sweepReservations(context, 'own');
  },
};
