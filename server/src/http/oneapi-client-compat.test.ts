import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../test/account-helpers.js';
import type { ApiClient } from '../../test/api-client.js';
import { availableEngines } from '../../test/engines.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { invalidateToken } from '../domain/token/token.cache.js';
import { nowSeconds } from '../lib/time.js';

/** What one-api's own console and clients send that ModelGate used to refuse or answer differently. */
describe.each(await availableEngines())('one-api clients on $label', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(async () => server?.close());

  const db = () => server.context.database.db;
  const tokenRow = (id: number) =>
    db().selectFrom('tokens').select(['status', 'remain_quota']).where('id', '=', id).executeTakeFirstOrThrow();
  const relay = (key: string) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });

  async function newToken(client: ApiClient, fields: Record<string, unknown>) {
    const created = await client.post('/api/token/', { name: uniqueName('t'), ...fields });
    expect(created.body.success).toBe(true);
    return created.body.data as { id: number; key: string };
  }

  test('sign-up with aff_code null (no invitation link) is accepted as no code', async () => {
    const username = uniqueName('aff');
    const registered = await server
      .client()
      .post('/api/user/register', { username, password: 'password123', password2: 'password123', aff_code: null });
    expect(registered.body).toEqual({ success: true, message: '', data: null });
    const row = await db().selectFrom('users').select('inviter_id').where('username', '=', username).executeTakeFirst();
    expect(row).toMatchObject({ inviter_id: 0 });
    const wrongType = await server.client().post('/api/user/register', {
      username: uniqueName('aff'),
      password: 'password123',
      aff_code: 12,
    });
    expect(wrongType.body.success).toBe(false);
  });

  test('log queries with start_timestamp=NaN (a cleared date) read it as no bound', async () => {
    const { client } = await signUp(server, uniqueName('log'));
    for (const query of [
      'p=0&type=0&start_timestamp=NaN&end_timestamp=NaN&token_name=&model_name=',
      'p=0&start_timestamp=NaN',
      'p=0&end_timestamp=NaN',
    ]) {
      const response = await client.get(`/api/log/self/?${query}`);
      expect(response.body, query).toMatchObject({ success: true });
      expect(Array.isArray(response.body.data), query).toBe(true);
      expect((await client.get(`/api/log/self/stat?${query}`)).body.success, query).toBe(true);
    }
    expect((await client.get('/api/log/self/?start_timestamp=soon')).body.success).toBe(false);
    expect((await client.get('/api/log/self/?start_timestamp=1e3')).body.success).toBe(false);
  });

  test('the relay saves status 3 on a token it refuses as expired, so consoles show "expired"', async () => {
    const { client } = await signUp(server, uniqueName('exp'));
    const token = await newToken(client, { expired_time: nowSeconds() + 3600, unlimited_quota: true });
    await db()
      .updateTable('tokens')
      .set({ expired_time: nowSeconds() - 10 })
      .where('id', '=', token.id)
      .execute();
    await invalidateToken(server.context, token);

    const refused = await relay(token.key);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('该令牌已过期');
    expect((await tokenRow(token.id)).status).toBe(3);
    expect((await client.get(`/api/token/${token.id}`)).body.data).toMatchObject({ status: 3 });
    // The next call is refused by the saved status, with the same answer.
    const again = await relay(token.key);
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: { message: string } }).error.message).toContain('该令牌已过期');
  });

  test('the relay saves status 4 on a limited token it refuses as used up, unless a call still holds quota', async () => {
    const { client, id: userId } = await signUp(server, uniqueName('exh'));
    const held = await newToken(client, { remain_quota: 0, unlimited_quota: false });
    // An open reservation: a call of this token is in flight, its hold may come back.
    await db()
      .insertInto('reservations')
      .values({
        id: `test-${held.id}-${Date.now()}`,
        node_id: 'test-node',
        user_id: userId,
        token_id: held.id,
        limited: 1,
        amount: 0,
        request_id: '',
        created_at: nowSeconds(),
      })
      .execute();
    const whileHeld = await relay(held.key);
    expect(whileHeld.status).toBe(401);
    expect(((await whileHeld.json()) as { error: { message: string } }).error.message).toContain('该令牌额度已用尽');
    expect((await tokenRow(held.id)).status).toBe(1);
    await db().deleteFrom('reservations').where('token_id', '=', held.id).execute();

    const refused = await relay(held.key);
    expect(refused.status).toBe(401);
    expect((await tokenRow(held.id)).status).toBe(4);
    expect((await client.get(`/api/token/${held.id}`)).body.data).toMatchObject({ status: 4 });
    const named = (await (await relay(held.key)).json()) as { error: { message: string } };
    expect(named.error.message).toContain(`额度已用尽`);

    // An unlimited token at zero is never marked.
    const unlimited = await newToken(client, { remain_quota: 0, unlimited_quota: true });
    await relay(unlimited.key);
    expect((await tokenRow(unlimited.id)).status).toBe(1);
  });
});
