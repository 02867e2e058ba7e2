import type { Metric, Registry } from 'prom-client';

/** One sample of a metric family, in the shape prom-client's registry formats. */
export interface Sample {
  labels: Record<string, string | number>;
  value: number;
  /** Set for a histogram's `_bucket`, `_sum` and `_count` lines. */
  metricName?: string;
}

export interface ExportedMetricOptions {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  /** Reads the samples at scrape time. */
  read: () => Sample[];
}

/**
 * Registers a family whose values live elsewhere (plain numbers the relay adds to) and are read only when
 * the registry is scraped. prom-client's own counters and histograms build a label string and validate the
 * labels on every increment, children included (about 0.3 µs each, five per relay call); the relay's path
 * adds to numbers instead. The registry only calls `get()` (and `reset()` from `resetMetrics`).
 */
export function registerExportedMetric(registry: Registry, options: ExportedMetricOptions): void {
  const { name, help, type, read } = options;
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: read() }),
    reset: () => undefined,
  };
  // The registry is structural; its typings name only prom-client's own classes.
  registry.registerMetric(metric as unknown as Metric);
}

/**
 * A histogram's samples from per-bucket counts (not cumulative; the last is above every bound): the
 * cumulative `_bucket` lines with `+Inf`, then `_sum` and `_count`.
 */
export function histogramSamples(
  name: string,
  labels: Record<string, string>,
  bounds: readonly number[],
  counts: readonly number[],
  sum: number,
): Sample[] {
  const samples: Sample[] = [];
  let cumulative = 0;
  bounds.forEach((bound, index) => {
    cumulative += counts[index] ?? 0;
    samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound }, value: cumulative });
  });
  cumulative += counts[bounds.length] ?? 0;
  samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: cumulative });
  samples.push({ metricName: `${name}_sum`, labels, value: sum });
  samples.push({ metricName: `${name}_count`, labels, value: cumulative });
  return samples;
}
