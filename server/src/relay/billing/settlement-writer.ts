import type { AppContext } from '../../context.js';
import type { NewLog } from '../../db/tables.js';
import { insertLogRows } from '../../domain/log/log.writer.js';
import { QuotaBatcher } from './quota-batcher.js';
import type { QuotaChange } from './quota.repository.js';

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** Logs held back at most while the log database is failing, so an outage cannot exhaust memory. */
const maxHeldLogs = 50_000;
const retryDelayMs = 1000;

/**
 * Group commit for the relay's settlements: every charge (and its consume log) submitted while a write is
 * in progress goes into the next write, one transaction for all balances and one multi-row insert for the
 * logs. A caller's promise settles when its own change is committed, so nothing is acknowledged before it
 * is durable; under load, dozens of requests share one transaction instead of four statements each.
 * What fails to write is kept and written again (money is never dropped).
 */
export class SettlementWriter {
  private readonly balances = new QuotaBatcher();
  private logs: NewLog[] = [];
  private waiters: Waiter[] = [];
  private writing: Promise<void> | null = null;
  private scheduled = false;

  constructor(private readonly context: AppContext) {}

  /** Queues a balance change and/or a log row; resolves once both are written. */
  submit(change: QuotaChange | null, log: NewLog | null): Promise<void> {
    if (change) this.balances.add(change);
    if (log) this.logs.push(log);
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.schedule(0);
    });
  }

  /** Writes whatever is queued (shutdown): a few attempts, then gives up with an error in the log. */
  async drain(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.writing) await this.writing;
      if (this.balances.pending === 0 && this.logs.length === 0 && this.waiters.length === 0) return;
      await this.write();
    }
  }

  private schedule(delayMs: number): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      void this.write();
    };
    if (delayMs > 0) setTimeout(run, delayMs).unref();
    else setImmediate(run);
  }

  private write(): Promise<void> {
    const logs = this.logs;
    const waiters = this.waiters;
    this.logs = [];
    this.waiters = [];
    this.writing = (async () => {
      let failure: unknown;
      try {
        await this.balances.flush(this.context.database.db);
      } catch (error) {
        failure = error;
      }
      try {
        if (logs.length > 0) await insertLogRows(this.context, logs);
      } catch (error) {
        failure ??= error;
        this.logs = [...logs, ...this.logs].slice(-maxHeldLogs);
      }
      if (failure) this.context.logger.error({ err: failure }, 'writing settlements failed; kept for the next write');
      for (const waiter of waiters) {
        if (failure) waiter.reject(failure);
        else waiter.resolve();
      }
    })().finally(() => {
      this.writing = null;
      if (this.waiters.length > 0) this.schedule(0);
      else if (this.balances.pending > 0 || this.logs.length > 0) this.schedule(retryDelayMs);
    });
    return this.writing;
  }
}
