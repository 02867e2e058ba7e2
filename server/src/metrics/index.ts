export { enableMetrics, relayMetricsOf, type ServerMetrics } from './metrics-registry.js';
export { failureStatus } from './relay-metrics.js';
