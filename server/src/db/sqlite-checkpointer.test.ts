import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase, type DatabaseHandle } from './connect.js';
import { boundWalOnWriter, SqliteCheckpointer, walLimitBytes } from './sqlite-checkpointer.js';

describe("SQLite's checkpoints in their own thread", () => {
  const directory = mkdtempSync(join(tmpdir(), 'modelgate-checkpoint-'));
  let handle: DatabaseHandle | undefined;
  afterAll(async () => {
    await handle?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('the server connection leaves checkpoints to the thread, yet the WAL is reused instead of growing', async () => {
    const file = join(directory, 'wal.db');
    handle = await openDatabase('', { sqlitePath: file, sqliteBusyTimeoutMs: 1000, maxConnections: 1 });
    const sqlite = handle.sqlite!;
    expect(sqlite.pragma('journal_size_limit', { simple: true })).toBe(walLimitBytes);
    sqlite.exec('create table filler (payload text)');
    const insert = sqlite.prepare('insert into filler values (?)');
    const payload = 'x'.repeat(1000);
    // Five commits of about 2 MB each, a checkpoint round apart: checkpointed, the WAL starts over each time.
    for (let round = 0; round < 5; round++) {
      sqlite.transaction(() => {
        for (let row = 0; row < 2000; row++) insert.run(payload);
      })();
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    const walBytes = statSync(`${file}-wal`).size;
    // Without the thread (and with automatic checkpoints off) it would hold all five rounds, above 10 MB.
    expect(walBytes).toBeLessThan(6 * 1024 * 1024);
    expect((sqlite.prepare('select count(*) as n from filler').get() as { n: number }).n).toBe(10_000);
  }, 30_000);

  const limit = 2 * 1024 * 1024;
  const payload = 'x'.repeat(1000);

  /** A writing connection as the server opens it, with the commit-time backstop or without it. */
  function openWriter(file: string, backstop: boolean) {
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = NORMAL');
    writer.pragma('busy_timeout = 5000');
    boundWalOnWriter(writer, limit);
    if (!backstop) writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table filler (payload text)');
    return writer;
  }

  /**
   * Commits of 16 rows until `bytes` of rows are in, `pause` between commits; the WAL file's size after each.
   * Counts bytes written, not time: the bound must hold however fast the commits come.
   */
  async function writeContinuously(writer: SQLite.Database, file: string, bytes: number, pause: () => Promise<void>) {
    const insert = writer.prepare('insert into filler values (?)');
    const commit = writer.transaction(() => {
      for (let row = 0; row < 16; row++) insert.run(payload);
    });
    let written = 0;
    let peak = 0;
    let previous = 0;
    let restarts = 0;
    while (written < bytes) {
      commit();
      written += 16 * payload.length;
      const size = statSync(`${file}-wal`).size;
      if (size < previous) restarts += 1;
      previous = size;
      peak = Math.max(peak, size);
      await pause();
    }
    const rows = (writer.prepare('select count(*) as n from filler').get() as { n: number }).n;
    return { peak, restarts, rows };
  }

  test('under continuous writes from another connection the thread keeps the WAL under its limit', async () => {
    const file = join(directory, 'thread-bound.db');
    const writer = openWriter(file, false);
    const failures: Error[] = [];
    const checkpointer = new SqliteCheckpointer(file, 1000, (error) => failures.push(error), {
      walLimitBytes: limit,
    });
    // A commit every millisecond or so: between any PASSIVE checkpoint's start and end another commit lands,
    // so without the truncating checkpoint the WAL would hold all 32 MiB. What it holds above the limit is what
    // commits add between two looks at its size (100 ms apart) and during the checkpoints.
    const written = await writeContinuously(
      writer,
      file,
      16 * limit,
      () => new Promise((resolve) => setTimeout(resolve, 1)),
    );
    await checkpointer.close();
    writer.close();
    expect(failures).toEqual([]);
    expect(written.rows).toBe(Math.ceil((16 * limit) / (16 * payload.length)) * 16);
    expect(written.restarts).toBeGreaterThanOrEqual(4);
    expect(written.peak).toBeLessThan(3 * limit);
  }, 60_000);

  test('should the thread fall behind, the writing connection cuts the WAL at twice the limit by itself', async () => {
    const file = join(directory, 'backstop-bound.db');
    const writer = openWriter(file, true);
    // No checkpoint thread and no pause at all between commits.
    const written = await writeContinuously(writer, file, 16 * limit, () => Promise.resolve());
    writer.close();
    expect(written.restarts).toBeGreaterThanOrEqual(4);
    // Twice the limit, plus the last commit's frames and the one checkpointed at.
    expect(written.peak).toBeLessThan(2 * limit + 64 * 1024);
  }, 60_000);
});
