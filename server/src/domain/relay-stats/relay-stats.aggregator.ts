import { LATENCY_COLUMNS, latencyBucketIndex } from './latency-buckets.js';

/** One relay attempt's result, as the pipeline reports it. */
export interface RelayOutcome {
  model: string;
  channelId: number;
  success: boolean;
  elapsedMs: number;
}

/** Counts of one (minute, model, channel) cell; the latency histogram counts successful attempts. */
export interface OutcomeCell {
  bucketStart: number;
  model: string;
  channelId: number;
  successCount: number;
  failureCount: number;
  latency: number[];
}

const MINUTE_SECONDS = 60;

/** Collects relay outcomes in memory per minute, model and channel until the next flush takes them. */
export class RelayStatsAggregator {
  private cells = new Map<string, OutcomeCell>();

  record(outcome: RelayOutcome, nowMs: number = Date.now()): void {
    const bucketStart = Math.floor(nowMs / 1000 / MINUTE_SECONDS) * MINUTE_SECONDS;
    const model = outcome.model.slice(0, 191);
    const key = `${bucketStart}\u0000${outcome.channelId}\u0000${model}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = {
        bucketStart,
        model,
        channelId: outcome.channelId,
        successCount: 0,
        failureCount: 0,
        latency: LATENCY_COLUMNS.map(() => 0),
      };
      this.cells.set(key, cell);
    }
    if (outcome.success) {
      cell.successCount += 1;
      const index = latencyBucketIndex(Math.max(0, outcome.elapsedMs));
      cell.latency[index] = (cell.latency[index] ?? 0) + 1;
    } else {
      cell.failureCount += 1;
    }
  }

  /** Hands over everything collected so far and starts afresh. */
  drain(): OutcomeCell[] {
    const cells = [...this.cells.values()];
    this.cells = new Map();
    return cells;
  }

  /** Puts cells back after a failed flush, merged with what arrived meanwhile. */
  restore(cells: readonly OutcomeCell[]): void {
    for (const cell of cells) {
      const key = `${cell.bucketStart}\u0000${cell.channelId}\u0000${cell.model}`;
      const current = this.cells.get(key);
      if (!current) {
        this.cells.set(key, { ...cell, latency: [...cell.latency] });
        continue;
      }
      current.successCount += cell.successCount;
      current.failureCount += cell.failureCount;
      cell.latency.forEach((count, index) => (current.latency[index] = (current.latency[index] ?? 0) + count));
    }
  }

  get size(): number {
    return this.cells.size;
  }
}
