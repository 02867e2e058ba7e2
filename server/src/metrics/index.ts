export { relayMetricsOf } from './metrics-registry.js';
export { failureStatus } from './relay-metrics.js';
