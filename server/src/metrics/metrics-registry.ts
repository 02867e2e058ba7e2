import type { Registry } from 'prom-client';
import type { AppContext } from '../context.js';
import { RelayMetrics } from './relay-metrics.js';

/** The metrics of one server (one AppContext): its own registry, so test servers in one process never mix. */
export interface ServerMetrics {
  registry: Registry;
  relay: RelayMetrics;
}

const enabled = new WeakMap<AppContext, ServerMetrics>();

/**
 * Creates the context's registry (when METRICS_TOKEN is set): Node's default metrics (event-loop delay, GC,
 * heap, RSS, CPU, handles), the relay's counters and this node's gauges. prom-client is loaded here only
 * (about 12 MiB of RSS with its dependencies), so a node without /metrics does not carry it.
 */
export async function enableMetrics(context: AppContext): Promise<ServerMetrics> {
  const existing = enabled.get(context);
  if (existing) return existing;
  const [{ collectDefaultMetrics, Registry }, { registerNodeGauges }] = await Promise.all([
    import('prom-client'),
    import('./node-gauges.js'),
  ]);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const relay = new RelayMetrics();
  relay.register(registry);
  registerNodeGauges(registry, context);
  const metrics = { registry, relay };
  enabled.set(context, metrics);
  context.shutdownTasks.push(async () => {
    enabled.delete(context);
    registry.clear();
  });
  return metrics;
}

/** The relay's counters, or undefined when /metrics is off (nothing is counted then). */
export const relayMetricsOf = (context: AppContext): RelayMetrics | undefined => enabled.get(context)?.relay;
