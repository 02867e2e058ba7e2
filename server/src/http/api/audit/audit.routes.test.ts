import { apiOperations } from '@modelgate/wire';
import { describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../../../test/account-helpers.js';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer } from '../../../../test/test-server.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { auditDb } from '../../../domain/audit/audit.table.js';
import { auditedRoutes } from './audited-routes.js';

interface Entry {
  id: number;
  seq: number;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  ip: string;
  before: any;
  after: any;
}

/** Admin writes that change nothing: previews answer what a write would do. */
const notWrites = new Set(['POST /api/option/preview', 'POST /api/price/import/preview']);

test('every admin or root write route is recorded', () => {
  const writes = apiOperations
    .filter(({ access, method }) => (access === 'admin' || access === 'root') && method !== 'GET')
    .map(({ method, path }) => `${method} ${path}`)
    .filter((route) => !notWrites.has(route));
  expect(writes.filter((route) => !auditedRoutes[route])).toEqual([]);
});

describe.each(await availableEngines())('the audit trail on $label', (engine) => {
  const server = startedForSuite(() => startTestServer({ engine }));
  const root = startedForSuite(() => server.rootClient());
  const audit = () => auditDb(server.context.database.db);

  /** Entries written after seq `since`, oldest first, as the API lists them. */
  async function entriesSince(client: ApiClient, since: number): Promise<Entry[]> {
    const page = await client.get('/api/audit/?page_size=100');
    expect(page.body.success).toBe(true);
    return (page.body.data.items as Entry[]).filter((entry) => entry.seq > since).reverse();
  }
  const lastSeq = async () =>
    Number((await audit().selectFrom('audit_head').select('seq').executeTakeFirstOrThrow()).seq);

  test('each kind of admin write leaves one entry, secrets masked; a user’s own writes and refused writes none', async () => {
    const start = await lastSeq();
    const channelKey = 'sk-audit-channel-key-0123456789';
    const username = uniqueName('aud');

    expect((await root.post('/api/user/', { username, password: 'password123' })).body.success).toBe(true);
    const user = await server.context.database.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    expect(
      (await root.put('/api/user/', { id: user.id, username, password: 'password456', quota: 77 })).body.success,
    ).toBe(true);
    expect((await root.post('/api/topup', { user_id: user.id, quota: 5, remark: 'audit' })).body.success).toBe(true);
    expect((await root.post('/api/user/manage', { username, action: 'disable' })).body.success).toBe(true);

    expect(
      (await root.post('/api/channel/', { name: 'aud-ch', type: 1, key: channelKey, models: 'gpt-x' })).body.success,
    ).toBe(true);
    const channel = await server.context.database.db
      .selectFrom('channels')
      .selectAll()
      .where('name', '=', 'aud-ch')
      .executeTakeFirstOrThrow();
    expect((await root.put('/api/channel/', { id: channel.id, priority: 3 })).body.success).toBe(true);
    expect((await root.delete(`/api/channel/${channel.id}`)).body.success).toBe(true);

    expect((await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-secret-value' })).body.success).toBe(true);
    expect((await root.put('/api/option/', { key: 'Notice', value: 'audited notice' })).body.success).toBe(true);

    expect((await root.put('/api/price/', { model: 'aud-model', price: { input: 1, output: 2 } })).body.success).toBe(
      true,
    );
    expect((await root.delete('/api/price/?model=aud-model')).body.success).toBe(true);

    const created = await root.post('/api/redemption', { name: 'aud-code', quota: 10, count: 1 });
    expect(created.body.success).toBe(true);
    const code = await server.context.database.db
      .selectFrom('redemptions')
      .selectAll()
      .where('name', '=', 'aud-code')
      .executeTakeFirstOrThrow();
    expect((await root.put('/api/redemption', { id: code.id, quota: 20 })).body.success).toBe(true);
    expect((await root.delete(`/api/redemption/${code.id}`)).body.success).toBe(true);
    expect((await root.delete(`/api/user/${user.id}`)).body.success).toBe(true);

    // A common user's own writes, and an admin route it is refused, record nothing.
    const common = await signUp(server, uniqueName('own'));
    expect((await common.client.post('/api/token/', { name: 'mine' })).body.success).toBe(true);
    expect((await common.client.put('/api/user/self', { display_name: 'me' })).body.success).toBe(true);
    expect((await common.client.put('/api/option/', { key: 'Notice', value: 'nope' })).body.success).toBe(false);
    // A refused admin write (validation) records nothing either.
    expect((await root.put('/api/channel/', { id: 999999, priority: 1 })).body.success).toBe(false);

    const entries = await entriesSince(root, start);
    expect(entries.map((entry) => entry.action)).toEqual([
      'user.create',
      'user.update',
      'user.topup',
      'user.manage.disable',
      'channel.create',
      'channel.update',
      'channel.delete',
      'option.update',
      'option.update',
      'price.set',
      'price.delete',
      'redemption.create',
      'redemption.update',
      'redemption.delete',
      'user.delete',
    ]);
    expect(entries.every((entry) => entry.actor_name === 'root' && entry.ip === '127.0.0.1')).toBe(true);

    const [userCreate, userUpdate, topUp] = entries;
    expect(userCreate!.before).toBeNull();
    expect(userCreate!.after).toMatchObject({ username, password: '*** (changed)' });
    expect(userUpdate!.before).toMatchObject({ quota: 0, password: '***' });
    expect(userUpdate!.after).toMatchObject({ quota: 77, password: '*** (changed)' });
    expect(topUp!.after.quota - topUp!.before.quota).toBe(5);
    const channelUpdate = entries[5]!;
    expect(channelUpdate.target_id).toBe(String(channel.id));
    expect(channelUpdate.before).toMatchObject({ priority: 0, key: '***' });
    expect(channelUpdate.after).toMatchObject({ priority: 3, key: '***' });
    expect(entries[7]!.after).toEqual({ SMTPToken: '*** (changed)' });
    expect(entries[8]!.after).toEqual({ Notice: 'audited notice' });
    expect(entries[9]!.after).toMatchObject({ model: 'aud-model' });
    expect(entries[10]!.after).toBeNull();
    expect(entries[12]!.before).toMatchObject({ quota: 10, key: '***' });
    expect(entries[12]!.after).toMatchObject({ quota: 20, key: '***' });

    // No secret anywhere in the stored trail.
    const stored = JSON.stringify(await audit().selectFrom('audit_logs').selectAll().execute());
    for (const secret of [channelKey, 'smtp-secret-value', user.password, code.key])
      expect(stored).not.toContain(secret);

    const filtered = await root.get(`/api/audit/?action=channel&target_type=channel&actor=root&page_size=100`);
    expect(filtered.body.data.items.map((entry: Entry) => entry.action)).toContain('channel.update');
    expect(filtered.body.data.items.every((entry: Entry) => entry.action.startsWith('channel.'))).toBe(true);
    expect(filtered.body.data.total).toBe(filtered.body.data.items.length);
    expect((await common.client.get('/api/audit/')).body.success).toBe(false);
  });

  test('concurrent admin writes, from two nodes on one database, keep one linear chain', async () => {
    // Two nodes of their own (the suite's server is a stand-in object, which shareDatabaseWith cannot key on).
    const first = await startTestServer({ engine });
    const second = await startTestServer({ engine, shareDatabaseWith: first });
    const audit = () => auditDb(first.context.database.db);
    const lastSeq = async () =>
      Number((await audit().selectFrom('audit_head').select('seq').executeTakeFirstOrThrow()).seq);
    try {
      const root = await first.rootClient();
      const otherRoot = await second.rootClient();
      const start = await lastSeq();
      const writes = Array.from({ length: 24 }, (_, index) =>
        (index % 2 ? root : otherRoot).put('/api/option/', { key: 'Footer', value: `footer ${index}` }),
      );
      for (const response of await Promise.all(writes)) expect(response.body.success).toBe(true);
      const rows = await audit()
        .selectFrom('audit_logs')
        .select(['seq'])
        .where('seq', '>', start)
        .orderBy('seq')
        .execute();
      expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 24 }, (_, index) => start + index + 1));
      expect((await root.get('/api/audit/verify')).body.data).toMatchObject({ ok: true, first_bad_id: null });
    } finally {
      await second.close();
      await first.close();
    }
  });

  test('the CSV holds the rows behind a byte order mark', async () => {
    const total = (await root.get('/api/audit/?action=option')).body.data.total as number;
    const csv = await root.get('/api/audit/export.csv?action=option');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    // fetch's text() drops a byte order mark: the bytes are read again as they came.
    const raw = await fetch(`${server.url}/api/audit/export.csv?action=option`, {
      headers: { cookie: [...root.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    expect([...new Uint8Array(await raw.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.text.startsWith('id,seq,time,')).toBe(true);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(total + 1);
    expect(lines.slice(1).every((line) => line.includes(',option.update,option,'))).toBe(true);
    expect(csv.text).not.toContain('smtp-secret-value');
  });

  test('verify walks the chain and names an entry edited or a tail deleted in the database', async () => {
    await root.put('/api/option/', { key: 'Notice', value: 'before tampering' });
    const clean = (await root.get('/api/audit/verify')).body.data;
    expect(clean).toMatchObject({ ok: true, first_bad_id: null });
    expect(clean.checked).toBe(await lastSeq());

    const victim = await audit()
      .selectFrom('audit_logs')
      .selectAll()
      .orderBy('seq')
      .limit(1)
      .offset(2)
      .executeTakeFirstOrThrow();
    await audit().updateTable('audit_logs').set({ actor_name: 'someone-else' }).where('id', '=', victim.id).execute();
    expect((await root.get('/api/audit/verify')).body.data).toMatchObject({
      ok: false,
      first_bad_id: victim.id,
      checked: 2,
    });
    await audit()
      .updateTable('audit_logs')
      .set({ actor_name: victim.actor_name })
      .where('id', '=', victim.id)
      .execute();
    expect((await root.get('/api/audit/verify')).body.data.ok).toBe(true);

    // A middle entry deleted: the next one's link no longer matches.
    const [, middle, next] = await audit()
      .selectFrom('audit_logs')
      .selectAll()
      .orderBy('seq')
      .limit(3)
      .offset(3)
      .execute();
    await audit().deleteFrom('audit_logs').where('id', '=', middle!.id).execute();
    expect((await root.get('/api/audit/verify')).body.data).toMatchObject({ ok: false, first_bad_id: next!.id });

    // No route edits or deletes an entry.
    for (const method of ['PUT', 'DELETE', 'PATCH', 'POST'] as const)
      expect((await root.request(method, `/api/audit/${next!.id}`, method === 'DELETE' ? undefined : {})).status).toBe(
        404,
      );
  });

  test('a deleted last entry shows at the head', async () => {
    const fresh = await startTestServer({ engine });
    try {
      const freshRoot = await fresh.rootClient();
      await freshRoot.put('/api/option/', { key: 'Notice', value: 'one' });
      await freshRoot.put('/api/option/', { key: 'Notice', value: 'two' });
      const db = auditDb(fresh.context.database.db);
      expect((await freshRoot.get('/api/audit/verify')).body.data).toEqual({
        ok: true,
        checked: 2,
        first_bad_id: null,
      });
      await db.deleteFrom('audit_logs').where('seq', '=', 2).execute();
      expect((await freshRoot.get('/api/audit/verify')).body.data).toEqual({
        ok: false,
        checked: 1,
        first_bad_id: null,
      });
    } finally {
      await fresh.close();
    }
  });
});
