import type { Registry } from 'prom-client';
import { histogramSamples, registerExportedMetric, type Sample } from './exported-metric.js';

/** Upper bounds (seconds) of the attempt duration histogram: from a fast embedding to a long completion. */
export const DURATION_BOUNDS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120] as const;
const boundsMs = DURATION_BOUNDS_SECONDS.map((seconds) => seconds * 1000);

/** An attempt's status class: the answer's (2xx), the failure's (4xx, 5xx), or the client left first. */
const STATUS_CLASSES = ['2xx', '4xx', '5xx', 'cancelled'] as const;
const CANCELLED = 3;

/**
 * How many (channel, model) pairs get series of their own. A forced channel (`sk-key-<id>`) takes any model
 * name, so the label set must stay bounded whatever clients send; pairs beyond it share the model `(other)`.
 */
const maxSeries = 2000;
const OTHER_MODEL = '(other)';

/** Plain counts of one (channel, model) pair: added to on the relay's path, read at scrape time. */
class RelaySeries {
  readonly attempts = [0, 0, 0, 0];
  /** Failed attempts by HTTP status. */
  readonly errors = new Map<number, number>();
  readonly durationCounts: number[] = new Array<number>(boundsMs.length + 1).fill(0);
  durationSumSeconds = 0;
  promptTokens = 0;
  completionTokens = 0;
  quota = 0;
  readonly labels: Record<string, string>;

  constructor(model: string, channelId: number) {
    this.labels = { model, channel: String(channelId) };
  }
}

/** The HTTP status a failed attempt ends with: the upstream's or the relay's own; anything else is a 500. */
export function failureStatus(thrown: unknown): number {
  const status = (thrown as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

/**
 * The relay's counters for /metrics: attempts by status class, errors by status, the duration of answered
 * attempts, and what the settlements charged (tokens, quota), per model and channel. Each call costs two
 * Map lookups and a few additions; labels and samples are built at scrape time only.
 */
export class RelayMetrics {
  private readonly byChannel = new Map<number, Map<string, RelaySeries>>();
  private seriesCount = 0;

  /** The series of a pair, made on first use. */
  private series(model: string, channelId: number): RelaySeries {
    let models = this.byChannel.get(channelId);
    if (!models) {
      models = new Map();
      this.byChannel.set(channelId, models);
    }
    let series = models.get(model);
    if (series) return series;
    if (this.seriesCount >= maxSeries) {
      series = models.get(OTHER_MODEL);
      if (series) return series;
      model = OTHER_MODEL;
    }
    series = new RelaySeries(model, channelId);
    models.set(model, series);
    this.seriesCount += 1;
    return series;
  }

  /**
   * One relay attempt on a channel: `status` is 200 for an answer, the failure's status, or 0 when the client
   * left first (not an error: it says nothing about the channel). Only answered attempts are timed.
   */
  attempt(model: string, channelId: number, elapsedMs: number, status: number): void {
    const series = this.series(model, channelId);
    if (status === 0) {
      series.attempts[CANCELLED]! += 1;
      return;
    }
    if (status < 400) {
      series.attempts[0]! += 1;
      let index = 0;
      while (index < boundsMs.length && elapsedMs > boundsMs[index]!) index += 1;
      series.durationCounts[index]! += 1;
      series.durationSumSeconds += elapsedMs / 1000;
      return;
    }
    series.attempts[status < 500 ? 1 : 2]! += 1;
    series.errors.set(status, (series.errors.get(status) ?? 0) + 1);
  }

  /** One settled (charged) call, as its consume log records it. */
  charge(model: string, channelId: number, promptTokens: number, completionTokens: number, quota: number): void {
    const series = this.series(model, channelId);
    series.promptTokens += promptTokens;
    series.completionTokens += completionTokens;
    series.quota += quota;
  }

  private samples(pick: (series: RelaySeries) => Sample[]): Sample[] {
    const samples: Sample[] = [];
    for (const models of this.byChannel.values()) for (const series of models.values()) samples.push(...pick(series));
    return samples;
  }

  /** Adds the relay's families to a registry. */
  register(registry: Registry): void {
    registerExportedMetric(registry, {
      name: 'modelgate_relay_attempts_total',
      help: 'Relay attempts on a channel (a retry is another attempt), by model, channel and status class (2xx, 4xx, 5xx, cancelled: the client left).',
      type: 'counter',
      read: () =>
        this.samples((series) =>
          STATUS_CLASSES.flatMap((statusClass, index) => {
            const value = series.attempts[index] ?? 0;
            return value > 0 || index === 0 ? [{ labels: { ...series.labels, status_class: statusClass }, value }] : [];
          }),
        ),
    });
    registerExportedMetric(registry, {
      name: 'modelgate_relay_errors_total',
      help: 'Failed relay attempts by model, channel and HTTP status (the upstream error, or the relay refusal).',
      type: 'counter',
      read: () =>
        this.samples((series) =>
          [...series.errors].map(([status, value]) => ({ labels: { ...series.labels, status }, value })),
        ),
    });
    registerExportedMetric(registry, {
      name: 'modelgate_relay_attempt_duration_seconds',
      help: 'Duration of answered relay attempts (whole answer, streams to their end), by model and channel.',
      type: 'histogram',
      read: () =>
        this.samples((series) =>
          histogramSamples(
            'modelgate_relay_attempt_duration_seconds',
            series.labels,
            DURATION_BOUNDS_SECONDS,
            series.durationCounts,
            series.durationSumSeconds,
          ),
        ),
    });
    registerExportedMetric(registry, {
      name: 'modelgate_relay_tokens_total',
      help: 'Tokens charged by the settlements (as the consume logs record them), by model, channel and type (prompt, completion).',
      type: 'counter',
      read: () =>
        this.samples((series) => [
          { labels: { ...series.labels, type: 'prompt' }, value: series.promptTokens },
          { labels: { ...series.labels, type: 'completion' }, value: series.completionTokens },
        ]),
    });
    registerExportedMetric(registry, {
      name: 'modelgate_relay_quota_charged_total',
      help: 'Quota charged by the settlements, by model and channel.',
      type: 'counter',
      read: () => this.samples((series) => [{ labels: series.labels, value: series.quota }]),
    });
  }
}
