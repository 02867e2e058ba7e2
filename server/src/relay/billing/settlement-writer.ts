import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { insertLogRows, type LogRow } from '../../domain/log/log.writer.js';
import { nowSeconds } from '../../lib/time.js';
import { refreshCachedBalances } from './cached-balances.js';
import { QuotaBatcher, writeTotals, type BalanceTotals, type WrittenBalances } from './quota-batcher.js';
import { writeSettlementsToSqlite } from './sqlite-settlement.js';
import type { QuotaChange } from './quota.repository.js';

/** Logs held back at most while the log database is failing, so an outage cannot exhaust memory. */
const maxHeldLogs = 50_000;
const retryDelayMs = 1000;
/** How long a charge waits for others to share its write; also the most a crash can lose. */
const groupWindowMs = 10;
/** A queue this long is written at once. */
const maxGroupSize = 1000;
/** How soon to look again when another transaction holds the SQLite connection. */
const busyConnectionRetryMs = 2;

/**
 * Group commit for the relay's settlements. The relay answers first and submits the charge (and its consume
 * log) here; everything submitted within a few milliseconds goes into one write: one transaction for the
 * balances, the reservations they close and the consume logs (on SQLite a synchronous one through prepared
 * statements), so a charge never lands without its log nor a log without its charge. Only a separate
 * LOG_SQL_DSN splits it in two: balances first, then logs. Under load, dozens of requests share a commit
 * instead of paying four statements each; at one client, the commit no longer sits between an answer and the
 * next request. `settled()` waits for what is queued (/api reads, tests); shutdown drains. What fails to
 * write is kept and written again (money is never dropped), and on PostgreSQL and MySQL, where a connection
 * lost during COMMIT leaves unknown whether it committed, each write leaves a marker row that tells, so a
 * write that did commit is not written twice.
 */
export class SettlementWriter {
  private readonly balances = new QuotaBatcher();
  private logs: LogRow[] = [];
  private submitted = 0;
  private waiters: (() => void)[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** A failed write that may have committed all the same (its marker decides, at the next write). */
  private unconfirmed: { id: string; totals: BalanceTotals; logs: LogRow[] } | null = null;

  /** `batcher`: BATCH_UPDATE_ENABLED's accumulator, whose unwritten deltas cached balances must still show. */
  constructor(
    private readonly context: AppContext,
    private readonly batcher: QuotaBatcher | null = null,
  ) {}

  /** Queues a balance change and/or a log row for the next write. */
  submit(change: QuotaChange | null, log: LogRow | null): void {
    if (change) this.balances.add(change);
    if (log) this.logs.push(log);
    this.submitted += 1;
    this.schedule(this.submitted >= maxGroupSize ? 0 : groupWindowMs);
  }

  /** Whether changes are queued or being written. */
  get busy(): boolean {
    return (
      this.writing !== null ||
      this.submitted > 0 ||
      this.logs.length > 0 ||
      this.balances.pending > 0 ||
      this.unconfirmed !== null
    );
  }

  /** Consume logs waiting to be written (queued, being retried or unconfirmed), for /metrics. */
  get pendingLogs(): number {
    return this.logs.length + (this.unconfirmed?.logs.length ?? 0);
  }

  /** Resolves once everything submitted so far is written, or has failed and is kept for the next write. */
  async settled(): Promise<void> {
    if (!this.busy) return;
    await new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      this.schedule(0);
    });
  }

  /** Writes whatever is queued (shutdown): a few attempts, then gives up with an error in the log. */
  async drain(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.writing) await this.writing;
      if (!this.busy) return;
      await this.write();
    }
  }

  /** Writes after `delayMs`, or sooner when a shorter delay is asked for (someone waits, the queue is full). */
  private schedule(delayMs: number): void {
    if (this.writing) return;
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write();
    }, delayMs);
    this.timer.unref();
  }

  /** One transaction for balances and logs; two when the logs live in another database (LOG_SQL_DSN). */
  private async writeAll(id: string, totals: BalanceTotals, logs: LogRow[]): Promise<WrittenBalances> {
    const { database, logDatabase } = this.context;
    if (database.sqlite && logDatabase === database) return writeSettlementsToSqlite(database.sqlite, totals, logs);
    const written = await database.db.transaction().execute(async (transaction) => {
      await transaction.insertInto('settlement_writes').values({ id, created_at: nowSeconds() }).execute();
      const balances = await writeTotals(transaction, totals);
      if (logs.length > 0 && logDatabase === database) await insertLogRows(transaction, database.dialect, logs);
      return balances;
    });
    if (logDatabase === database || logs.length === 0) return written;
    // The balances are written: a failure from here on must keep only the logs, not charge twice.
    try {
      await insertLogRows(logDatabase.db, logDatabase.dialect, logs);
    } catch (error) {
      this.keepLogs(logs);
      this.context.logger.error({ err: error }, 'writing consume logs failed; kept for the next write');
    }
    return written;
  }

  /**
   * Settles the fate of a write whose COMMIT failed: its marker row is there (it committed: drop it) or not
   * (it did not: its charges join this write). Throws while the database does not answer.
   */
  private async resolveUnconfirmed(): Promise<void> {
    const unconfirmed = this.unconfirmed;
    if (!unconfirmed) return;
    const marker = await this.context.database.db
      .selectFrom('settlement_writes')
      .select('id')
      .where('id', '=', unconfirmed.id)
      .executeTakeFirst();
    this.unconfirmed = null;
    if (marker) return;
    this.balances.restore(unconfirmed.totals);
    this.logs = [...unconfirmed.logs, ...this.logs];
  }

  private keepLogs(logs: LogRow[]): void {
    this.logs = [...logs, ...this.logs].slice(-maxHeldLogs);
  }

  private write(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A Kysely transaction is open on the one SQLite connection (it awaits between its statements): written
    // now, the charges would join it as a savepoint and vanish if it rolled back. Wait until it ends.
    if (this.context.database.sqlite?.inTransaction) {
      // Counts as writing, so that waiters and shutdown wait for it and nothing schedules a second write.
      this.writing = new Promise((resolve) => setTimeout(resolve, busyConnectionRetryMs)).then(() => {
        this.writing = null;
        return this.write();
      });
      return this.writing;
    }
    const waiters = this.waiters;
    this.waiters = [];
    this.submitted = 0;
    this.writing = (async () => {
      try {
        await this.resolveUnconfirmed();
      } catch (error) {
        this.context.logger.error({ err: error }, 'the database does not answer; settlements kept for the next write');
        for (const resolve of waiters) resolve();
        return;
      }
      const logs = this.logs;
      this.logs = [];
      const totals = this.balances.take();
      const id = randomBytes(12).toString('hex');
      try {
        const written = await this.writeAll(id, totals, logs);
        refreshCachedBalances(this.context, written, totals.tokenKeys, [this.balances, this.batcher]);
      } catch (error) {
        if (this.context.database.sqlite) {
          this.balances.restore(totals);
          this.keepLogs(logs);
        } else {
          this.unconfirmed = { id, totals, logs };
        }
        this.context.logger.error({ err: error }, 'writing settlements failed; kept for the next write');
      }
      for (const resolve of waiters) resolve();
    })().finally(() => {
      this.writing = null;
      // Someone waits: now; charges that came in during the write: after the usual window; only what a
      // failed write kept: after a pause.
      if (this.waiters.length > 0) this.schedule(0);
      else if (this.submitted > 0) this.schedule(groupWindowMs);
      else if (this.busy) this.schedule(retryDelayMs);
    });
    return this.writing;
  }
}

/** BATCH_UPDATE_ENABLED: writes the accumulated balances (job and shutdown) and refreshes this node's cached ones. */
export async function flushBatch(context: AppContext, batcher: QuotaBatcher): Promise<void> {
  if (batcher.pending === 0) return;
  const totals = batcher.take();
  try {
    const written = await context.database.db.transaction().execute((transaction) => writeTotals(transaction, totals));
    refreshCachedBalances(context, written, totals.tokenKeys, [batcher]);
  } catch (error) {
    batcher.restore(totals);
    throw error;
  }
}
