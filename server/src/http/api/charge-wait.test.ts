import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { testCharge } from '../../../test/quota-charges.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { createTestUser } from '../../../test/test-users.js';
import { relayRuntime } from '../../relay/runtime.js';

/**
 * An /api read waits for the relay's pending charges (read-your-writes), except on routes that read none of
 * what a charge writes: a commit held up by the database (here a row lock; in the logs benchmark a large
 * delete's WAL) must not hold /api/status. SQLite writes its charges synchronously, so only the servers with
 * row locks can hold one back.
 */
const engines = (await availableEngines()).filter((engine) => engine.name !== 'sqlite');

describe.each(engines)('/api reads and pending charges on $label', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(async () => server?.close());

  test('a held charge holds the balance read until it lands, and never /api/status', async () => {
    const { context } = server;
    const user = await createTestUser(server, { quota: 10_000 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // Another session locks the user's row, so the charge's UPDATE waits for it.
    const holder = context.database.db.transaction().execute(async (transaction) => {
      await sql`select id from users where id = ${user.id} for update`.execute(transaction);
      locked();
      await released;
    });
    await lockTaken;
    relayRuntime(context).settlements.submit({ ...testCharge(user.id, 0, 700), limited: false }, null);

    let balanceAnswered = false;
    const balance = user.client.get('/api/user/self').then((response) => {
      balanceAnswered = true;
      return response;
    });
    const status = await Promise.race([
      server.client().get('/api/status'),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('/api/status waited for the held charge')), 10_000),
      ),
    ]);
    expect(status.body.success).toBe(true);
    expect(balanceAnswered).toBe(false);

    release();
    await holder;
    const self = await balance;
    expect(self.body.data.quota).toBe(10_000 - 700);
    expect(self.body.data.used_quota).toBe(700);
  });
});
