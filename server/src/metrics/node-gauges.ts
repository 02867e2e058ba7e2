import { Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../context.js';
import type { DatabaseHandle } from '../db/connect.js';
import { relayRuntime } from '../relay/runtime.js';

/**
 * This node's state, read when /metrics is scraped (never on a request's path): calls holding quota, the
 * settlement writer's queue, cache and routing sizes, the database pools.
 */
export function registerNodeGauges(registry: Registry, context: AppContext): void {
  const registers = [registry];
  new Gauge({
    name: 'modelgate_reservations_open',
    help: "This node's calls in flight holding quota: with a row in reservations (database) or trusted and held in memory only (memory).",
    labelNames: ['kind'],
    registers,
    collect() {
      const { inFlight } = relayRuntime(context);
      this.set({ kind: 'database' }, inFlight.openReservations);
      this.set({ kind: 'memory' }, inFlight.trustedHolds);
    },
  });
  new Gauge({
    name: 'modelgate_settlement_pending_logs',
    help: 'Charges (consume logs) answered and not yet written by the settlement writer, kept ones after a failed write included.',
    registers,
    collect() {
      this.set(relayRuntime(context).settlements.pendingLogs);
    },
  });
  new Gauge({
    name: 'modelgate_routing_channels',
    help: "Channels in this node's routing snapshot.",
    registers,
    collect() {
      this.set(relayRuntime(context).router.size);
    },
  });
  const caches = {
    users: context.caches.users,
    tokens: context.caches.tokens,
    access_tokens: context.caches.accessTokens,
  };
  new Gauge({
    name: 'modelgate_cache_entries',
    help: 'Entries of the in-process caches: rows found (rows) and keys that found nothing (misses).',
    labelNames: ['cache', 'kind'],
    registers,
    collect() {
      for (const [cache, local] of Object.entries(caches)) {
        const { hits, misses } = local.size;
        this.set({ cache, kind: 'rows' }, hits);
        this.set({ cache, kind: 'misses' }, misses);
      }
    },
  });
  const pools: [string, DatabaseHandle][] = [['main', context.database]];
  if (context.logDatabase !== context.database) pools.push(['logs', context.logDatabase]);
  const poolGauge = (
    name: string,
    help: string,
    read: (stats: { open: number; idle: number; waiting: number }) => number,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ['database'],
      registers,
      collect() {
        for (const [database, handle] of pools) {
          const stats = handle.poolStats?.();
          if (stats) this.set({ database }, read(stats));
        }
      },
    });
  poolGauge(
    'modelgate_db_pool_open_connections',
    'Connections open in the database pool (PostgreSQL, MySQL).',
    (s) => s.open,
  );
  poolGauge('modelgate_db_pool_idle_connections', 'Idle connections in the database pool.', (s) => s.idle);
  poolGauge(
    'modelgate_db_pool_waiting_queries',
    'Queries waiting for a connection of the database pool.',
    (s) => s.waiting,
  );
}
