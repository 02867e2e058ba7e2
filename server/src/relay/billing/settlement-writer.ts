import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { isSessionEnded } from '../../db/connection-health.js';
import { insertLogRows, type LogRow } from '../../domain/log/log.writer.js';
import { nowSeconds } from '../../lib/time.js';
import { refreshCachedBalances } from './cached-balances.js';
import { QuotaBatcher, writeTotals, type BalanceTotals, type WrittenBalances } from './quota-batcher.js';
import { writeSettlementsToSqlite } from './sqlite-settlement.js';
import type { ChargeJournal, PendingBatch } from './charge-journal.js';
import type { QuotaChange } from './quota.repository.js';

/** Logs held back at most while the log database is failing, so an outage cannot exhaust memory. */
const maxHeldLogs = 50_000;
const retryDelayMs = 1000;
/**
 * How long a charge that no answer waits for may wait for others to share its write. A commit costs about 25 WAL
 * pages whatever it holds, so the more calls share one the cheaper each (decision 0006).
 */
const groupWindowMs = 50;
/** A queue this long is written at once. */
const maxGroupSize = 1000;
/** How soon to look again when another transaction holds the SQLite connection. */
const busyConnectionRetryMs = 2;
/** Failed writes in a row, each retried, after which kept charges count towards refusing calls. */
const failuresBeforeRefusing = 3;
/** How long this writer keeps the marker rows of its journaled batches. */
const markerLifetimeMs = 60_000;
/**
 * How long channels' used quota may wait in memory: one `channels` row per channel used is the widest row a
 * batch writes, and with thousands of channels each call dirtied a page of its own (issue 28).
 */
const channelUsageWindowMs = 2000;
/** Charges that may wait outside the database while it cannot take them, before new calls are refused. */
export const maxChargesWhileFailing = 100;

/** A batch on its way, and the answers that wait for it to be durable. */
interface Batch extends PendingBatch {
  durable: (() => void)[];
}

/**
 * Group commit for the relay's settlements. An answer's last bytes wait for its charge (and its consume log)
 * to be durable: `submit` queues the charge and appends it to this node's journal (one line; the lines of
 * one event-loop turn in one `write`), and `durable()` resolves once that line is written. Everything submitted within 50 ms then goes
 * into one write: one transaction for the balances, the reservations they close, the consume logs and the
 * batch's marker row (on SQLite a synchronous one through prepared statements), so a charge never lands
 * without its log nor a log without its charge, and a journal replayed after a crash skips what was
 * committed. Only a separate LOG_SQL_DSN splits it in two: balances first, then logs. Without a journal (or
 * when its line could not be written), `durable()` waits for the commit, written at the end of the event-loop
 * turn with every charge of that turn. `settled()` waits for what is queued (/api reads, tests); shutdown
 * drains.
 *
 * A write that fails keeps its batch, under the id of its marker row (`settlement_writes`), and writes it
 * again, first at once (a lost connection: a fresh one takes it), then every second. The batch goes to this
 * node's journal file (charge-journal.ts), which makes it durable meanwhile, and which the next start
 * replays if this node stops before the database takes it. A kept batch is written with its marker, and
 * only when the marker is not there already: on PostgreSQL and MySQL, where a connection lost during COMMIT
 * leaves unknown whether it committed, each write has a marker, so a write that did commit is not applied
 * twice. While batches are kept, the relay refuses new calls once more than `maxChargesWhileFailing` charges
 * wait (`refusesCalls`), and /api/status reports the storage as degraded.
 */
export class SettlementWriter {
  private readonly balances = new QuotaBatcher();
  private logs: LogRow[] = [];
  private submitted = 0;
  private waiters: (() => void)[] = [];
  private durableWaiters: (() => void)[] = [];
  /** Answers waiting for this turn's journal write, and that write's turn-end callback. */
  private journalWaiters: (() => void)[] = [];
  private journalFlush: NodeJS.Immediate | null = null;
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private immediate: NodeJS.Immediate | null = null;
  /** Writes that failed, oldest first, kept until the database takes them (and in the journal meanwhile). */
  private kept: Batch[] = [];
  /** The kept batches' balance totals, which this node's cached balances must still show. */
  private keptBalances = new QuotaBatcher();
  private failures = 0;
  /** The last write failed in a way a fresh connection fixes (its session ended, or a first failure). */
  private retryAtOnce = false;
  /** The queued batch's marker id, journaled with each of its charges (with a journal only). */
  private batchId: string | null = null;
  /** Whether every charge of the queued batch reached the journal's line file. */
  private batchJournaled = true;
  private batchSequence = 0;
  /** Marker ids of this writer start with it, so it can delete its own old ones. */
  private readonly markerPrefix = randomBytes(8).toString('hex');
  private markersPrunedAt = Date.now();
  /** Whether the kept batches are in the journal's kept-batch file (the line files may then be emptied). */
  private keptSaved = true;
  /** Channels' used quota from written batches, held back until `channelUsageWindowMs` has passed. */
  private channelUsage = new Map<number, number>();
  private channelUsageWrittenAt = Date.now();
  /** Set by `drain`: everything goes, channels' usage included. */
  private draining = false;

  /**
   * `batcher`: BATCH_UPDATE_ENABLED's accumulator, whose unwritten deltas cached balances must still show;
   * `journal`: where failed writes are kept across a stop (the relay's writer; none in unit tests).
   */
  constructor(
    private readonly context: AppContext,
    private readonly batcher: QuotaBatcher | null = null,
    private readonly journal: ChargeJournal | null = null,
  ) {}

  /** Queues a balance change and/or a log row for the next write. */
  submit(change: QuotaChange | null, log: LogRow | null): void {
    if (change) this.balances.add(change);
    if (log) this.logs.push(log);
    this.submitted += 1;
    if (this.journal) {
      this.batchId ??= `${this.markerPrefix}.${(this.batchSequence += 1).toString(36)}`;
      this.journal.append(this.batchId, change, log);
      this.journalFlush ??= setImmediate(() => this.flushJournal());
    }
    this.schedule(this.submitted >= maxGroupSize ? 0 : groupWindowMs);
  }

  /**
   * Resolves once what was submitted so far is durable: in the journal's line file (written at the end of
   * this event-loop turn), else once committed or kept in the journal's kept-batch file.
   */
  durable(): Promise<void> {
    if (this.journal && this.batchJournaled) {
      if (!this.journal.pending) return Promise.resolve();
      return new Promise<void>((resolve) => this.journalWaiters.push(resolve));
    }
    return new Promise<void>((resolve) => {
      this.durableWaiters.push(resolve);
      this.writeSoon();
    });
  }

  /**
   * Writes this turn's charges to the journal in one write; the answers waiting for them may go. When it
   * cannot (a full disk), they wait for the database's commit instead.
   */
  private flushJournal(): void {
    if (this.journalFlush) clearImmediate(this.journalFlush);
    this.journalFlush = null;
    const waiters = this.journalWaiters;
    this.journalWaiters = [];
    try {
      this.journal?.flush();
    } catch (error) {
      if (this.batchJournaled)
        this.context.logger.error({ err: error }, 'the charge journal cannot be written: answers wait for commits');
      this.batchJournaled = false;
      this.durableWaiters.push(...waiters);
      this.writeSoon();
      return;
    }
    for (const resolve of waiters) resolve();
  }

  /** Whether changes are queued or being written (channels' used quota held back included). */
  get busy(): boolean {
    return (
      this.writing !== null ||
      this.submitted > 0 ||
      this.logs.length > 0 ||
      this.balances.pending > 0 ||
      this.kept.length > 0 ||
      this.channelUsage.size > 0
    );
  }

  /** Consume logs waiting to be written (queued, or kept from a failed write), for /metrics. */
  get pendingLogs(): number {
    let kept = 0;
    for (const batch of this.kept) kept += batch.logs.length;
    return this.logs.length + kept;
  }

  /** Whether the last writes failed and their charges wait outside the database (/api/status: storage). */
  get failing(): boolean {
    return this.kept.length > 0;
  }

  /**
   * While the database cannot take charges (writes failing one after another, none of them writing a kept
   * batch), new calls are refused once more than a small bound of them wait outside it: in kept batches, and
   * queued behind a write that keeps failing.
   */
  get refusesCalls(): boolean {
    // A write that failed once, or twice (a session ended, then another), is a blip its retry fixes.
    if (this.failures < failuresBeforeRefusing) return false;
    return this.pendingLogs > maxChargesWhileFailing;
  }

  /** Resolves once everything submitted so far is written, or has failed and is kept for the next write. */
  async settled(): Promise<void> {
    if (!this.busy) return;
    await new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      this.schedule(0);
    });
  }

  /**
   * Writes whatever is queued (shutdown): a few attempts; what still fails stays in the journal, which the
   * next start replays.
   */
  async drain(): Promise<void> {
    this.draining = true;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.writing) await this.writing;
      if (!this.busy) break;
      await this.write();
    }
    this.journal?.close();
    if (this.kept.length > 0)
      this.context.logger.error(
        { charges: this.pendingLogs, journal: this.journal?.path },
        'stopping with charges the database did not take: they stay in the journal for the next start',
      );
  }

  /**
   * Takes over the journals that earlier nodes on this database left (a stop while writes failed, a crash
   * with kept charges) and writes their batches; what the database still refuses is kept as this node's
   * own. Run at start, before serving.
   */
  async recoverJournals(): Promise<void> {
    if (!this.journal) return;
    const claimed = this.journal.claimOthers();
    if (claimed.length === 0) return;
    for (const { batches } of claimed) for (const batch of batches) this.keep({ ...batch, durable: [] });
    this.saveJournal();
    for (const { release } of claimed) release();
    this.context.logger.warn(
      { charges: this.pendingLogs },
      'replaying the charges an earlier node kept in its journal',
    );
    await this.write();
  }

  /** Writes after `delayMs`, or sooner when a shorter delay is asked for (someone waits, the queue is full). */
  private schedule(delayMs: number): void {
    if (this.writing || this.immediate) return;
    const due = Date.now() + delayMs;
    if (this.timer && this.timerDue <= due && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.writing) void this.write();
    }, delayMs);
    this.timer.unref();
  }

  /**
   * Writes at the end of this turn of the event loop (a timer of 0 would wait a millisecond), so that the
   * charges queued in the same turn share the commit; while a write runs, its end starts the next.
   */
  private writeSoon(): void {
    if (this.writing || this.immediate) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.immediate = setImmediate(() => {
      this.immediate = null;
      if (!this.writing) void this.write();
    });
  }

  /**
   * One transaction for balances and logs; two when the logs live in another database (LOG_SQL_DSN).
   * `marked`: the batch may have been written before (kept, or replayed), so its marker is looked for first.
   * A journaled batch writes its marker on SQLite too, for a replay of the journal to find.
   */
  private async writeAll(batch: PendingBatch, marked: boolean, journaled = false): Promise<WrittenBalances | null> {
    const { id, totals, logs } = batch;
    const { database, logDatabase } = this.context;
    if (database.sqlite && logDatabase === database)
      return writeSettlementsToSqlite(database.sqlite, totals, logs, marked || journaled ? id : undefined);
    const written = await database.db.transaction().execute(async (transaction) => {
      if (marked) {
        const marker = await transaction
          .selectFrom('settlement_writes')
          .select('id')
          .where('id', '=', id)
          .executeTakeFirst();
        if (marker) return null;
      }
      await transaction.insertInto('settlement_writes').values({ id, created_at: nowSeconds() }).execute();
      const balances = await writeTotals(transaction, totals);
      if (logs.length > 0 && logDatabase === database) await insertLogRows(transaction, database.dialect, logs);
      return balances;
    });
    if (logDatabase === database || logs.length === 0 || !written) return written;
    // The balances are written: a failure from here on must keep only the logs, not charge twice.
    try {
      await insertLogRows(logDatabase.db, logDatabase.dialect, logs);
    } catch (error) {
      this.keepLogs(logs);
      this.context.logger.error({ err: error }, 'writing consume logs failed; kept for the next write');
    }
    return written;
  }

  private keepLogs(logs: LogRow[]): void {
    this.logs = [...logs, ...this.logs].slice(-maxHeldLogs);
  }

  private keep(batch: Batch): void {
    this.kept.push(batch);
    this.keptBalances.restore(batch.totals);
  }

  /** Rewrites the journal with the kept batches; their answers may then go. False when it could not. */
  private saveJournal(): boolean {
    if (!this.journal) return false;
    try {
      this.journal.save(this.kept);
    } catch (error) {
      this.context.logger.error({ err: error, journal: this.journal.path }, 'writing the charge journal failed');
      this.keptSaved = false;
      return false;
    }
    this.keptSaved = true;
    for (const batch of this.kept) {
      for (const resolve of batch.durable) resolve();
      batch.durable = [];
    }
    return true;
  }

  /** Writes the kept batches, oldest first, each with its marker; stops at the first that fails. */
  private async writeKept(): Promise<void> {
    const before = this.kept.length;
    while (this.kept.length > 0) {
      const batch = this.kept[0]!;
      const written = await this.writeAll(batch, true);
      this.kept.shift();
      this.keptBalances = new QuotaBatcher();
      for (const other of this.kept) this.keptBalances.restore(other.totals);
      if (written) this.refresh(written, batch.totals);
      for (const resolve of batch.durable) resolve();
      // The database takes charges: a later failure of this write starts a new run of failures.
      this.failures = 0;
    }
    if (before > 0) {
      this.saveJournal();
      this.context.logger.warn({ batches: before }, 'the database takes charges again: kept charges written');
    }
  }

  /**
   * A journaled batch's marker is needed only while its lines may be replayed, which a commit ends at once:
   * this writer's markers older than a minute go (a crashed node's stay, for the replay; the daily sweep
   * takes them).
   */
  private async pruneMarkers(): Promise<void> {
    if (!this.journal || Date.now() - this.markersPrunedAt < markerLifetimeMs) return;
    this.markersPrunedAt = Date.now();
    try {
      await this.context.database.db
        .deleteFrom('settlement_writes')
        .where('id', 'like', `${this.markerPrefix}.%`)
        .where('created_at', '<', nowSeconds() - markerLifetimeMs / 1000)
        .execute();
    } catch (error) {
      this.context.logger.warn({ err: error }, 'deleting old settlement markers failed; the next write tries again');
    }
  }

  private refresh(written: WrittenBalances, totals: BalanceTotals): void {
    refreshCachedBalances(this.context, written, totals.tokenKeys, [this.balances, this.keptBalances, this.batcher]);
  }

  /**
   * Adds the channels' used quota held back to a batch once the window has passed (or someone waits: an /api
   * read, a drain); holds the batch's own back otherwise. Money, logs and rollups are never held back; a crash
   * loses at most the window's channel statistics (decision 0032).
   */
  private withChannelUsage(totals: BalanceTotals, awaited: boolean): BalanceTotals {
    for (const [id, used] of totals.channels) this.channelUsage.set(id, (this.channelUsage.get(id) ?? 0) + used);
    const now = Date.now();
    if (awaited || this.draining || now - this.channelUsageWrittenAt >= channelUsageWindowMs) {
      totals.channels = this.channelUsage;
      this.channelUsage = new Map();
      this.channelUsageWrittenAt = now;
    } else totals.channels = new Map();
    return totals;
  }

  /** One write at a time: a second would write the same kept batch twice. */
  private write(): Promise<void> {
    if (this.writing) return this.writing.then(() => this.write());
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
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
    // The queued batch's lines go to its line file before it is taken (a failure moves their answers to
    // `durableWaiters`, which this write resolves).
    this.flushJournal();
    const waiters = this.waiters;
    this.waiters = [];
    const durable = this.durableWaiters;
    this.durableWaiters = [];
    this.submitted = 0;
    const logs = this.logs;
    this.logs = [];
    const journaled = this.batchId !== null && this.batchJournaled;
    const batch: Batch = {
      id: this.batchId ?? randomBytes(12).toString('hex'),
      totals: this.withChannelUsage(this.balances.take(), waiters.length > 0),
      logs,
      durable,
    };
    this.batchId = null;
    this.batchJournaled = true;
    const lineFile = this.journal?.rotate();
    const empty =
      logs.length === 0 && batch.totals.users.size + batch.totals.tokens.size + batch.totals.channels.size === 0;
    this.writing = (async () => {
      try {
        await this.writeKept();
        if (!empty) {
          const written = await this.writeAll(batch, false, journaled);
          if (written) this.refresh(written, batch.totals);
        }
        for (const resolve of durable) resolve();
        this.failures = 0;
        await this.pruneMarkers();
      } catch (error) {
        // A session ended under the write (a failover, sessions killed) is fixed by the next connection: only
        // writes the database itself refuses, or a database that cannot be reached, count towards refusing calls.
        const sessionEnded = isSessionEnded(error);
        if (!sessionEnded) this.failures += 1;
        this.retryAtOnce = sessionEnded || this.failures === 1;
        if (!empty) this.keep(batch);
        this.saveJournal();
        this.context.logger.error(
          { err: error, kept: this.pendingLogs },
          'writing settlements failed; kept for the next write',
        );
      }
      // The batch is in the database or in the kept-batch file: its lines have done their work.
      if (lineFile !== undefined && this.keptSaved) this.journal?.clear(lineFile);
      for (const resolve of waiters) resolve();
    })().finally(() => {
      this.writing = null;
      // Someone waits: now; charges that came in during the write: after the usual window; only what a
      // failed write kept: at once after a first failure (a fresh connection), then after a pause.
      if (this.durableWaiters.length > 0) this.writeSoon();
      else if (this.waiters.length > 0) this.schedule(0);
      else if (this.submitted > 0) this.schedule(groupWindowMs);
      else if (this.kept.length > 0 || this.logs.length > 0 || this.balances.pending > 0)
        this.schedule(this.retryAtOnce ? 0 : retryDelayMs);
      else if (this.channelUsage.size > 0)
        this.schedule(Math.max(0, this.channelUsageWrittenAt + channelUsageWindowMs - Date.now()));
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
