import type { Logger } from 'pino';

const firstProbeDelayMs = 200;
const longestProbeDelayMs = 10_000;

/**
 * Whether the database answers, kept from the connection pool's own events rather than a query per status
 * call: a session that ends or a connection that cannot open marks it lost; a connection that opens marks it
 * back. While lost, a probe (`select 1`) runs with a growing pause until it succeeds, so the flag clears
 * without waiting for traffic. Nothing is retried here: the failed query's caller has its error.
 */
export class ConnectionHealth {
  private lostSince = 0;
  private probeTimer: NodeJS.Timeout | null = null;
  private probeDelayMs = firstProbeDelayMs;
  private closed = false;
  private probe: (() => Promise<unknown>) | null = null;

  constructor(
    private readonly logger: Logger | undefined,
    private readonly databaseLabel: string,
  ) {}

  /** False from a lost session or a failed connection until the database answers again. */
  get healthy(): boolean {
    return this.lostSince === 0;
  }

  /** Set once the query builder exists: how to ask the database whether it answers. */
  setProbe(probe: () => Promise<unknown>): void {
    this.probe = probe;
  }

  /** A session ended (restart, failover, idle timeout, terminated) or a connection could not open. */
  lost(error: unknown): void {
    if (this.closed) return;
    if (this.healthy) {
      this.lostSince = Date.now();
      this.probeDelayMs = firstProbeDelayMs;
      this.logger?.warn(
        { err: error, database: this.databaseLabel },
        'database session lost: dropping the connection, the pool opens a new one',
      );
    }
    this.scheduleProbe();
  }

  /** A connection opened, or a probe answered. */
  answered(): void {
    if (this.healthy) return;
    this.logger?.info({ database: this.databaseLabel, downMs: Date.now() - this.lostSince }, 'database answers again');
    this.lostSince = 0;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  close(): void {
    this.closed = true;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private scheduleProbe(): void {
    if (this.closed || this.probeTimer || !this.probe) return;
    const probe = this.probe;
    this.probeTimer = setTimeout(() => {
      void probe().then(
        () => {
          this.probeTimer = null;
          this.answered();
        },
        () => {
          this.probeTimer = null;
          this.probeDelayMs = Math.min(this.probeDelayMs * 2, longestProbeDelayMs);
          this.scheduleProbe();
        },
      );
    }, this.probeDelayMs);
    this.probeTimer.unref();
  }
}
