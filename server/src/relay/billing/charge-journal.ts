import { createHash } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Config } from '../../config/env.js';
import type { LogRow } from '../../domain/log/log.writer.js';
import type { BalanceTotals } from './quota-batcher.js';

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

/**
 * The charges a node could not write to its database (a full disk, a database that does not answer), kept in
 * a file next to the SQLite database, one per node (`<db>.<node id>.charges.journal`), so that a stop or a
 * crash does not lose them: the next node to start on this data directory replays them. Each batch carries
 * the id of its marker row (`settlement_writes`), written in the transaction that applies it, so a batch
 * that reached the database before its journal was cleared is never applied twice.
 *
 * The file is replaced whole (written beside, synced, renamed), so it is never seen half written, and a node
 * that takes over another's file (a rename) cannot disturb a live owner: the owner's next write puts its
 * own list back, and markers drop what both wrote.
 */
export class ChargeJournal {
  readonly path: string;
  private readonly base: string;

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
      if (!name.startsWith(prefix) || !name.endsWith(suffix) || path === this.path) continue;
      // Still a journal by its name: should this node die before releasing it, the next start claims it again.
      const taken = `${this.base}-claimed${claimed.length}${suffix}`;
      try {
        renameSync(path, taken);
      } catch {
        continue; // another node took it first
      }
      const batches = (JSON.parse(readFileSync(taken, 'utf8')) as StoredBatch[]).map(restored);
      claimed.push({ batches, release: () => rmSync(taken, { force: true }) });
    }
    return claimed;
  }
}
