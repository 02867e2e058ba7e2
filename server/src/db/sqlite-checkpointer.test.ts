import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase, type DatabaseHandle } from './connect.js';

describe("SQLite's checkpoints in their own thread", () => {
  const directory = mkdtempSync(join(tmpdir(), 'modelgate-checkpoint-'));
  let handle: DatabaseHandle | undefined;
  afterAll(async () => {
    await handle?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('the server connection never checkpoints on commit, yet the WAL is reused instead of growing', async () => {
    const file = join(directory, 'wal.db');
    handle = await openDatabase('', { sqlitePath: file, sqliteBusyTimeoutMs: 1000, maxConnections: 1 });
    const sqlite = handle.sqlite!;
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
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
});
