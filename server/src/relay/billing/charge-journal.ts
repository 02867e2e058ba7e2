import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Config } from '../../config/env.js';
import type { LogRow } from '../../domain/log/log.writer.js';
import { QuotaBatcher, type BalanceTotals } from './quota-batcher.js';
import type { QuotaChange } from './quota.repository.js';

/** A settlement write that has not reached the database: its marker id, balance totals and consume logs. */
export interface PendingBatch {
  id: string;
  totals: BalanceTotals;
  logs: LogRow[];
}

interface StoredBatch {
  id: string;
  users: [number, { balance: number; used: number; requests: number }][];
  tokens: [number, { balance: number; used: number }][];
  channels: [number, number][];
  closed: BalanceTotals['closed'];
  tokenKeys: [number, string][];
  logs: LogRow[];
}

const stored = ({ id, totals, logs }: PendingBatch): StoredBatch => ({
  id,
  users: [...totals.users],
  tokens: [...totals.tokens],
  channels: [...totals.channels],
  closed: totals.closed,
  tokenKeys: [...totals.tokenKeys],
  logs,
});

const restored = (batch: StoredBatch): PendingBatch => ({
  id: batch.id,
  totals: {
    users: new Map(batch.users),
    tokens: new Map(batch.tokens),
    channels: new Map(batch.channels),
    closed: batch.closed,
    tokenKeys: new Map(batch.tokenKeys),
  },
  logs: batch.logs,
});

const suffix = '.charges.journal';

/** A line file's charges as batches; a line cut short (the host died while writing it) is left out. */
function fromLines(text: string): PendingBatch[] {
  const batches = new Map<string, { balances: QuotaBatcher; logs: LogRow[] }>();
  for (const line of text.split('\n')) {
    let charge: { b: string; c: QuotaChange | null; l: LogRow | null };
    try {
      charge = JSON.parse(line) as typeof charge;
    } catch {
      continue;
    }
    let batch = batches.get(charge.b);
    if (!batch) batches.set(charge.b, (batch = { balances: new QuotaBatcher(), logs: [] }));
    if (charge.c) batch.balances.add(charge.c);
    if (charge.l) batch.logs.push(charge.l);
  }
  return [...batches].map(([id, { balances, logs }]) => ({ id, totals: balances.take(), logs }));
}

/**
 * A node's charges outside its database, in files next to the SQLite database (`<db>.<node id>….charges.journal`),
 * which the next node to start on this data directory replays:
 *
 * - every charge, as it is submitted, appended as one line to a line file (the lines of one event-loop turn in
 *   one write) (`-lines0`, `-lines1`: one takes the
 *   queued batch while the other's batch is being written, and is emptied once that batch is committed). A
 *   line in the operating system's cache survives the process (kill -9, a crash), so an answer may leave as
 *   soon as its charge's line is written, while the database write stays grouped;
 * - the batches the database refused (a full disk, a database that does not answer), in one file replaced
 *   whole (written beside, synced, renamed), so it is never seen half written.
 *
 * Every batch carries the id of its marker row (`settlement_writes`), written in the transaction that applies
 * it: a replay skips a batch whose marker is there, so nothing is applied twice. A node that takes over a live
 * node's files (a rename) cannot make it lose charges: the owner writes its kept batches again, and opens its
 * line files anew when it finds them gone.
 */
export class ChargeJournal {
  readonly path: string;
  private readonly base: string;
  private readonly linePaths: [string, string];
  private readonly lineFiles: [number | null, number | null] = [null, null];
  /** The line file the queued batch's charges go to. */
  private current: 0 | 1 = 0;

  /**
   * Beside the SQLite file; for PostgreSQL and MySQL, in SQLite's directory under a name drawn from SQL_DSN,
   * so nodes of another database on the same disk never replay this one's charges.
   */
  constructor(config: Pick<Config, 'SQLITE_PATH' | 'SQL_DSN'>, nodeId: string) {
    const sqlitePath = resolve(config.SQLITE_PATH);
    const database = config.SQL_DSN
      ? join(dirname(sqlitePath), `sql-${createHash('sha256').update(config.SQL_DSN).digest('hex').slice(0, 16)}`)
      : sqlitePath;
    this.base = `${database}.${nodeId}`;
    this.path = `${this.base}${suffix}`;
    this.linePaths = [`${this.base}-lines0${suffix}`, `${this.base}-lines1${suffix}`];
  }

  /** Lines appended since the last flush. */
  private unwritten: string[] = [];

  /** Adds one charge of batch `id`, for the next flush. */
  append(id: string, change: QuotaChange | null, log: LogRow | null): void {
    this.unwritten.push(JSON.stringify({ b: id, c: change, l: log }));
  }

  /** Whether charges wait for a flush. */
  get pending(): boolean {
    return this.unwritten.length > 0;
  }

  /**
   * Writes the appended charges to the current line file in one `write` (the charges of one event-loop turn
   * share it). Throws when it cannot (a full disk); those lines are then dropped: their charges wait for the
   * database instead.
   */
  flush(): void {
    if (this.unwritten.length === 0) return;
    const text = `${this.unwritten.join('\n')}\n`;
    this.unwritten = [];
    const file = this.lineFiles[this.current] ?? this.open(this.current);
    writeSync(file, text);
  }

  /**
   * The queued batch is taken for writing: later charges go to the other line file (opened anew if another
   * node took it over). Returns the taken batch's.
   */
  rotate(): 0 | 1 {
    const taken = this.current;
    this.current = taken === 0 ? 1 : 0;
    const file = this.lineFiles[this.current];
    const path = this.linePaths[this.current];
    if (file !== null && !(existsSync(path) && statSync(path).ino === fstatSync(file).ino)) {
      closeSync(file);
      this.lineFiles[this.current] = null;
    }
    return taken;
  }

  /** Empties a line file whose batch the database holds now (or the kept-batch file does). */
  clear(index: 0 | 1): void {
    const file = this.lineFiles[index];
    if (file !== null) ftruncateSync(file, 0);
  }

  /** Closes the line files and removes the empty ones (a stop with nothing left outside the database). */
  close(): void {
    this.unwritten = [];
    for (const index of [0, 1] as const) {
      const file = this.lineFiles[index];
      if (file === null) continue;
      const empty = fstatSync(file).size === 0;
      closeSync(file);
      this.lineFiles[index] = null;
      if (empty) rmSync(this.linePaths[index], { force: true });
    }
  }

  private open(index: 0 | 1): number {
    const path = this.linePaths[index];
    mkdirSync(dirname(path), { recursive: true });
    const file = openSync(path, 'a');
    this.lineFiles[index] = file;
    return file;
  }

  /** Replaces the journal with these batches (removes it when there are none). Throws when it cannot. */
  save(batches: readonly PendingBatch[]): void {
    if (batches.length === 0) {
      rmSync(this.path, { force: true });
      return;
    }
    const temporary = `${this.path}.tmp`;
    mkdirSync(dirname(this.path), { recursive: true });
    const file = openSync(temporary, 'w');
    try {
      writeSync(file, `${JSON.stringify(batches.map(stored))}\n`);
      fsyncSync(file);
    } finally {
      closeSync(file);
    }
    renameSync(temporary, this.path);
  }

  /**
   * Takes over the journals that other nodes (earlier incarnations of this one) left beside this database:
   * each is renamed to this node's name for it, read, and handed back with a function that deletes it once
   * its batches are kept elsewhere (written, or in this node's own journal).
   */
  claimOthers(): { batches: PendingBatch[]; release: () => void }[] {
    const directory = dirname(this.path);
    // `<db>.`: the database's own name, then any node's id.
    const prefix = `${basename(this.path).split('.').slice(0, -3).join('.')}.`;
    const claimed: { batches: PendingBatch[]; release: () => void }[] = [];
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      return claimed;
    }
    for (const name of names) {
      const path = join(directory, name);
      if (!name.startsWith(prefix) || !name.endsWith(suffix) || path.startsWith(this.base)) continue;
      // Still a journal by its name: should this node die before releasing it, the next start claims it again.
      const taken = `${this.base}-claimed${claimed.length}${suffix}`;
      try {
        renameSync(path, taken);
      } catch {
        continue; // another node took it first
      }
      const text = readFileSync(taken, 'utf8');
      const batches = text.startsWith('[') ? (JSON.parse(text) as StoredBatch[]).map(restored) : fromLines(text);
      claimed.push({ batches, release: () => rmSync(taken, { force: true }) });
    }
    return claimed;
  }
}
