import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../test/engines.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { openDatabase } from './connect.js';
import { readOnlyDatabase } from './sqlite-thread.js';

/** About half a second of SQLite work on the 2-core machine. */
const heavyCount = sql<{
  n: number;
}>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 3000000) select count(*) as n from c`;

/** The largest event-loop delay (ms) seen while `work` runs. */
async function maxLoopDelayDuring(work: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    await new Promise((resolve) => setTimeout(resolve, 20)); // the histogram's timer is running
    await work();
    // A loop held until now is only recorded when the next timer fires.
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    histogram.disable();
  }
  return histogram.max / 1e6;
}

describe.each(await availableEngines())('SQLite reader on $label', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(() => server.close());

  test('the read-only query builder answers the rows of a query, on every engine', async () => {
    const reads = readOnlyDatabase(server.context.database);
    const rows = await reads.selectFrom('users').select(['id', 'username']).where('username', '=', 'root').execute();
    expect(rows).toEqual([{ id: 1, username: 'root' }]);
  });

  test.runIf(engine.name === 'sqlite')('a write through the reader fails and changes nothing', async () => {
    const reads = readOnlyDatabase(server.context.database);
    expect(reads).not.toBe(server.context.database.db);
    await expect(reads.updateTable('users').set({ quota: 1 }).where('id', '=', 1).execute()).rejects.toThrow(
      /readonly/,
    );
    const root = await server.context.database.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', 1)
      .executeTakeFirst();
    expect(root?.quota).not.toBe(1);
  });

  test.runIf(engine.name === 'sqlite')('a heavy read in the reader leaves the event loop free', async () => {
    const handle = server.context.database;
    // Control: on the server's own connection the same read holds the loop for its whole length.
    const blocked = await maxLoopDelayDuring(() => heavyCount.execute(handle.db));
    let rows: { n: number }[] = [];
    const free = await maxLoopDelayDuring(async () => {
      rows = (await heavyCount.execute(readOnlyDatabase(handle))).rows;
    });
    expect(rows).toEqual([{ n: 3_000_000 }]);
    expect(blocked).toBeGreaterThan(150);
    expect(free).toBeLessThan(100);
  });

  test.runIf(engine.name === 'sqlite')('the reader sees what the server committed before the read', async () => {
    const handle = server.context.database;
    await handle.db.updateTable('users').set({ display_name: 'seen by the reader' }).where('id', '=', 1).execute();
    const reads = readOnlyDatabase(handle);
    const row = await reads.selectFrom('users').select('display_name').where('id', '=', 1).executeTakeFirst();
    expect(row?.display_name).toBe('seen by the reader');
  });
});

test("a SQLite file's heavy reads and its WAL checkpoints share one thread, which ends with the database", async () => {
  const directory = mkdtempSync(join(tmpdir(), 'modelgate-reader-'));
  const threads = () => readdirSync('/proc/self/task').length;
  await stat(directory); // libuv's pool starts with the first asynchronous file call: not counted below
  const before = threads();
  const handle = await openDatabase('', {
    sqlitePath: join(directory, 'one-thread.db'),
    sqliteBusyTimeoutMs: 1000,
    maxConnections: 1,
  });
  try {
    await sql`create table filler (n integer)`.execute(handle.db);
    await sql`insert into filler values (1)`.execute(handle.db);
    const reads = readOnlyDatabase(handle);
    expect(reads).not.toBe(handle.db);
    expect((await sql`select n from filler`.execute(reads)).rows).toEqual([{ n: 1 }]);
    // Each Node thread is a V8 isolate of its own (about 7 MiB): one for the reads and the checkpoints.
    expect(threads() - before).toBe(1);
  } finally {
    await handle.close();
    rmSync(directory, { recursive: true, force: true });
  }
  await expect(sql`select n from filler`.execute(readOnlyDatabase(handle))).rejects.toThrow(/closed/);
  expect(threads()).toBe(before);
});
