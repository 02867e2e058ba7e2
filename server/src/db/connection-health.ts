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

/** PostgreSQL's codes for a session the server ended (admin_shutdown, crash_shutdown, cannot_connect_now). */
const endedSessionCodes = new Set(['57P01', '57P02', '57P03']);
/** mysql2's codes for a lost or killed connection. */
const lostConnectionCodes = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CONNECTION_KILLED',
  'ER_QUERY_INTERRUPTED',
  'ER_SERVER_SHUTDOWN',
  'ECONNRESET',
  'EPIPE',
]);

/** Whether a query failed because its connection's session ended (terminated, killed, a restart, a reset). */
export function isSessionEnded(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (endedSessionCodes.has(code) || code.startsWith('08') || lostConnectionCodes.has(code))
  )
    return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|not queryable|terminating connection|closed state|Connection lost|Connection was killed/i.test(
      message,
    )
  );
}

/** Whether the query was refused before it was sent: its connection was known to be dead already. */
export function wasNeverSent(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR' || code === 'PROTOCOL_ENQUEUE_AFTER_QUIT') return true;
  return typeof message === 'string' && /not queryable|closed state/i.test(message);
}
