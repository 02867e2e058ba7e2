import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../../../test/test-server.js';
import { openDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrate.js';
import { insertReturningId } from '../../db/insert-id.js';
import { readBalances } from './quota.repository.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the balances a call is admitted against, on SQLite', () => {
  let database: FreshDatabase;
  let handle: DatabaseHandle;
  /** Another connection to the same file: another node, or any other process. */
  let elsewhere: SQLite.Database;
  let userId: number;
  let tokenId: number;

  beforeAll(async () => {
    database = await freshDatabase({ name: 'sqlite', redis: false, label: 'sqlite' });
    handle = await openDatabase('', {
      sqlitePath: database.env.SQLITE_PATH ?? '',
      sqliteBusyTimeoutMs: 1000,
      maxConnections: 1,
    });
    await migrateToLatest(handle.db, handle.dialect);
    userId = await insertReturningId(handle.db, 'users', { username: 'balances', password: 'x', quota: 1000 });
    tokenId = await insertReturningId(handle.db, 'tokens', {
      user_id: userId,
      key: 'balances'.padEnd(48, 'x'),
      created_time: 0,
      accessed_time: 0,
      remain_quota: 500,
    });
    elsewhere = new SQLite(handle.sqlite!.name);
  });
  afterAll(async () => {
    elsewhere?.close();
    await handle?.close();
    await database?.drop();
  });

  const setQuota = (quota: number) => elsewhere.prepare('update users set quota = ? where id = ?').run(quota, userId);

  test("another connection's commit is seen from the next event-loop turn; the reads of one turn share one", async () => {
    await nextTurn();
    expect(await readBalances(handle, userId, tokenId)).toEqual({ user: 1000, token: 500 });
    setQuota(400);
    // The same turn: the read made at its start stands for all its calls.
    expect(await readBalances(handle, userId, tokenId)).toEqual({ user: 1000, token: 500 });
    await nextTurn();
    expect(await readBalances(handle, userId, tokenId)).toEqual({ user: 400, token: 500 });
    expect(await readBalances(handle, userId, null)).toEqual({ user: 400, token: null });
    setQuota(1000);
    await nextTurn();
  });

  test("this node's own writes are seen at once, in the same turn", async () => {
    await nextTurn();
    expect((await readBalances(handle, userId, tokenId)).token).toBe(500);
    await handle.db.updateTable('tokens').set({ remain_quota: 300 }).where('id', '=', tokenId).execute();
    expect((await readBalances(handle, userId, tokenId)).token).toBe(300);
    handle.sqlite!.prepare('update tokens set remain_quota = 500 where id = ?').run(tokenId);
    expect((await readBalances(handle, userId, tokenId)).token).toBe(500);
  });

  test('what a transaction wrote and then rolled back is never remembered', async () => {
    await nextTurn();
    expect((await readBalances(handle, userId, null)).user).toBe(1000);
    const sqlite = handle.sqlite!;
    const reads: number[] = [];
    const spend = sqlite.transaction(() => {
      sqlite.prepare('update users set quota = 0 where id = ?').run(userId);
      void readBalances(handle, userId, null).then((stored) => reads.push(stored.user));
      throw new Error('roll back');
    });
    expect(() => spend()).toThrow('roll back');
    await Promise.resolve();
    expect(reads).toEqual([0]);
    expect((await readBalances(handle, userId, null)).user).toBe(1000);
  });
});
