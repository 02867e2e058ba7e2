import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { testCharge } from '../../../test/quota-charges.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { createTestUser } from '../../../test/test-users.js';
import { insertReturningId } from '../../db/insert-id.js';
import { LogType } from '../../domain/log/log.constants.js';
import { logRow } from '../../domain/log/log.writer.js';
import { ChargeJournal } from './charge-journal.js';
import { SettlementWriter } from './settlement-writer.js';

describe.each(await availableEngines())('settlement group commit on $label', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(async () => server?.close());

  test('120 concurrent submissions each land exactly once', async () => {
    const { context } = server;
    const user = await createTestUser(server, { quota: 1_000_000 });
    const tokenId = await insertReturningId(context.database.db, 'tokens', {
      user_id: user.id,
      key: `settle${user.id}`.padEnd(48, 'x'),
      created_time: 0,
      accessed_time: 0,
      remain_quota: 500_000,
    });
    const writer = new SettlementWriter(context);
    await Promise.all(
      Array.from({ length: 120 }, async (_, index) => {
        await new Promise((resolve) => setTimeout(resolve, index % 7));
        writer.submit(
          testCharge(user.id, tokenId, 7),
          logRow(context, { type: LogType.Consume, user_id: user.id, quota: 7, content: `call ${index}` }),
        );
        if (index % 10 === 0) await writer.settled();
      }),
    );
    await writer.settled();
    expect(writer.busy).toBe(false);
    const row = await context.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.quota)).toBe(1_000_000 - 840);
    expect(Number(row.used_quota)).toBe(840);
    expect(Number(row.request_count)).toBe(120);
    const token = await context.database.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', tokenId)
      .executeTakeFirstOrThrow();
    expect(Number(token.remain_quota)).toBe(500_000 - 840);
    const logs = await context.logDatabase.db.selectFrom('logs').select('id').where('user_id', '=', user.id).execute();
    expect(logs).toHaveLength(120);
  });

  test('journaled charges a few milliseconds apart share one database write', async () => {
    const { context } = server;
    const { db } = context.database;
    const user = await createTestUser(server, { quota: 10_000 });
    const journal = new ChargeJournal(context.config, `group-window-${engine.name}`);
    const writer = new SettlementWriter(context, null, journal);
    const markers = async () =>
      Number(
        (
          await db
            .selectFrom('settlement_writes')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const quota = async () =>
      Number((await db.selectFrom('users').select('quota').where('id', '=', user.id).executeTakeFirstOrThrow()).quota);
    const before = await markers();
    // As calls answered one after another: each answer waits only for its journal line.
    for (let call = 0; call < 3; call++) {
      writer.submit({ ...testCharge(user.id, 0, 10), limited: false }, null);
      await writer.durable();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Nobody reads, so the write comes when the first charge's window ends: one commit (one marker) for all.
    await expect.poll(quota, { timeout: 5000, interval: 5 }).toBe(10_000 - 30);
    expect(await markers()).toBe(before + 1);
    await writer.drain();
    journal.close();
  });

  test('a failed write is kept and written once the database accepts it again', async () => {
    const { context } = server;
    const user = await createTestUser(server, { quota: 1000 });
    const writer = new SettlementWriter(context);
    await sql`alter table logs rename to logs_away`.execute(context.logDatabase.db);
    writer.submit(
      { ...testCharge(user.id, 0, 100), limited: false },
      logRow(context, { type: LogType.Consume, user_id: user.id, quota: 100, content: 'kept' }),
    );
    await writer.settled();
    expect(writer.busy).toBe(true); // the failed part is held for the next write
    await sql`alter table logs_away rename to logs`.execute(context.logDatabase.db);
    await writer.drain();
    const row = await context.database.db
      .selectFrom('users')
      .select(['quota', 'used_quota'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.quota)).toBe(900);
    expect(Number(row.used_quota)).toBe(100);
    const logs = await context.logDatabase.db
      .selectFrom('logs')
      .select('content')
      .where('user_id', '=', user.id)
      .execute();
    expect(logs.map((log) => log.content)).toEqual(['kept']);
  });
});

describe('settlements on SQLite while another transaction is open', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  test('a charge due during a transaction that rolls back is still written', async () => {
    const { context } = server;
    const user = await createTestUser(server, { quota: 1_000 });
    const writer = new SettlementWriter(context);
    const rolledBack = context.database.db
      .transaction()
      .execute(async (transaction) => {
        await transaction.selectFrom('users').select('id').where('id', '=', user.id).execute();
        writer.submit({ ...testCharge(user.id, 0, 100), limited: false }, null);
        // The writer's 10 ms window passes while this transaction is still open.
        await new Promise((resolve) => setTimeout(resolve, 40));
        throw new Error('this transaction fails');
      })
      .catch((error: Error) => error.message);
    expect(await rolledBack).toBe('this transaction fails');
    await writer.settled();
    const row = await context.database.db
      .selectFrom('users')
      .select(['quota', 'used_quota'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect([Number(row.quota), Number(row.used_quota)]).toEqual([900, 100]);
  });

  test("channels' used quota waits out its window unless someone reads; the balances never wait", async () => {
    const { context } = server;
    const { db } = context.database;
    const user = await createTestUser(server, { quota: 10_000 });
    const channelIds = await Promise.all(
      [1, 2, 3].map((index) =>
        insertReturningId(db, 'channels', {
          type: 1,
          key: `sk-window-${index}`,
          name: `window ${index}`,
          created_time: 0,
          models: 'm',
          config: '{}',
        }),
      ),
    );
    const used = async () => {
      const rows = await db.selectFrom('channels').select(['id', 'used_quota']).where('id', 'in', channelIds).execute();
      return channelIds.map((id) => Number(rows.find((row) => row.id === id)!.used_quota));
    };
    const quota = async () =>
      Number((await db.selectFrom('users').select('quota').where('id', '=', user.id).executeTakeFirstOrThrow()).quota);
    const writer = new SettlementWriter(context);
    // A write the first call's answer waits for (no journal here: the commit), with nobody reading.
    const charge = (channel: number, amount: number) =>
      writer.submit({ ...testCharge(user.id, 0, amount), limited: false, channelId: channelIds[channel]! }, null);
    charge(0, 100);
    await writer.durable();
    charge(1, 20);
    charge(1, 5);
    await writer.durable();
    expect(await quota()).toBe(10_000 - 125);
    expect(await used()).toEqual([0, 0, 0]);
    expect(writer.busy).toBe(true);

    // A reader (an /api request waits for this) gets every channel's usage written.
    await writer.settled();
    expect(await used()).toEqual([100, 25, 0]);
    expect(writer.busy).toBe(false);

    // Left alone, the held usage is written when its window has passed, with no call to carry it.
    charge(2, 7);
    await writer.durable();
    expect(await used()).toEqual([100, 25, 0]);
    await expect.poll(used, { timeout: 5000, interval: 100 }).toEqual([100, 25, 7]);
    expect(writer.busy).toBe(false);
  });
});

describe('refusing calls while the database cannot take charges (SQLite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  /** Submits `count` charges of 1 with `content`, and waits for their write (which may fail). */
  const charges = async (writer: SettlementWriter, userId: number, count: number, content: string) => {
    for (let index = 0; index < count; index++)
      writer.submit(
        { ...testCharge(userId, 0, 1), limited: false },
        logRow(server.context, { type: LogType.Consume, user_id: userId, quota: 1, content }),
      );
    await writer.settled();
  };

  test('charges queued behind writes that keep failing count towards the bound', async () => {
    const { context } = server;
    const user = await createTestUser(server, { quota: 1_000_000 });
    const writer = new SettlementWriter(context);
    await sql`alter table logs rename to logs_away`.execute(context.database.db);
    try {
      for (let write = 0; write < 3; write++) await charges(writer, user.id, 10, 'kept');
      expect(writer.refusesCalls).toBe(false); // 30 kept
      for (let index = 0; index < 80; index++)
        writer.submit(
          { ...testCharge(user.id, 0, 1), limited: false },
          logRow(context, { type: LogType.Consume, user_id: user.id, quota: 1, content: 'queued' }),
        );
      // 110 outside the database: 30 kept, 80 waiting for a write that cannot succeed.
      expect(writer.refusesCalls).toBe(true);
    } finally {
      await sql`alter table logs_away rename to logs`.execute(context.database.db);
    }
    await writer.drain();
    expect(writer.refusesCalls).toBe(false);
  });

  test('a write that writes kept charges before it fails is no failure in a row', async () => {
    const { context } = server;
    const user = await createTestUser(server, { quota: 1_000_000 });
    const writer = new SettlementWriter(context);
    await sql`alter table logs rename to logs_away`.execute(context.database.db);
    await charges(writer, user.id, 1, 'first');
    await charges(writer, user.id, 1, 'refused');
    await charges(writer, user.id, 110, 'later');
    expect(writer.refusesCalls).toBe(true);
    // The database comes back but refuses one batch: the write takes the first, then fails.
    await sql`alter table logs_away rename to logs`.execute(context.database.db);
    await sql`create trigger refuse_one before insert on logs when new.content = 'refused'
      begin select raise(abort, 'refused'); end`.execute(context.database.db);
    try {
      await charges(writer, user.id, 1, 'next');
      expect(writer.failing).toBe(true);
      expect(writer.refusesCalls).toBe(false);
    } finally {
      await sql`drop trigger refuse_one`.execute(context.database.db);
    }
    await writer.drain();
    const logs = await context.database.db.selectFrom('logs').select('id').where('user_id', '=', user.id).execute();
    expect(logs).toHaveLength(113);
  });
});
