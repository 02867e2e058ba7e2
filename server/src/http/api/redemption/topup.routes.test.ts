import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { readNumberColumn } from '../../../../test/row-reads.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { getCachedUser } from '../../../domain/user/user.cache.js';
import { createTestUser, type TestUser } from '../../../../test/test-users.js';

describe.each(await availableEngines())('redeeming codes on $label', (engine) => {
  let server: TestServer;
  let admin: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await createTestUser(server, { role: 10 });
  });
  afterAll(async () => server?.close());

  const makeCode = async (quota: number): Promise<string> => {
    const response = await admin.client.post('/api/redemption/', { name: 'topup', quota, count: 1 });
    return response.body.data[0];
  };
  const quotaOf = (id: number) => readNumberColumn(server.context.database.db, 'users', 'quota', id);

  test('credits the user once, records who redeemed it, and logs the top-up', async () => {
    const user = await createTestUser(server, { quota: 1000 });
    const key = await makeCode(100);
    await user.client.get('/api/token/'); // puts the user row in the cache
    const redeemed = await user.client.post('/api/user/topup', { key });
    expect(redeemed.body).toEqual({ success: true, message: '', data: 100 });
    expect(await quotaOf(user.id)).toBe(1100);
    expect((await getCachedUser(server.context, user.id))?.quota).toBe(1100);

    const code = await server.context.database.db
      .selectFrom('redemptions')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(Number(code.status)).toBe(3);
    expect(Number(code.used_user_id)).toBe(user.id);
    expect(Math.abs(Number(code.redeemed_time) - Date.now() / 1000)).toBeLessThan(5);

    const logs = await server.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: 1, username: user.username, content: '通过兑换码充值 ＄0.000200 额度' });

    const again = await user.client.post('/api/user/topup', { key });
    expect(again.body).toEqual({ success: false, message: '兑换失败，该兑换码已被使用' });
    expect(await quotaOf(user.id)).toBe(1100);
  });

  test('refuses missing, unknown and malformed codes', async () => {
    const user = await createTestUser(server, { quota: 5 });
    expect((await user.client.post('/api/user/topup', {})).body).toEqual({ success: false, message: '未提供兑换码' });
    expect((await user.client.post('/api/user/topup', { key: '  ' })).body).toEqual({
      success: false,
      message: '未提供兑换码',
    });
    expect((await user.client.post('/api/user/topup', { key: '0'.repeat(32) })).body).toEqual({
      success: false,
      message: '兑换失败，无效的兑换码',
    });
    expect((await user.client.post('/api/user/topup', { key: "' or '1'='1" })).body.message).toBe(
      '兑换失败，无效的兑换码',
    );
    expect((await user.client.post('/api/user/topup', { key: 'x'.repeat(65) })).body.message).toMatch(/^无效的参数/);
    expect((await user.client.post('/api/user/topup', { key: 42 })).body.message).toMatch(/^无效的参数/);
    expect((await server.client().post('/api/user/topup', { key: 'x' })).status).toBe(401);
    expect(await quotaOf(user.id)).toBe(5);
    const english = await server.client(user.accessToken);
    const response = await english.request(
      'POST',
      '/api/user/topup',
      { key: '1'.repeat(32) },
      { 'accept-language': 'en-US' },
    );
    expect(response.body.message).toBe('redeem failed: invalid code');
  });

  test('20 users racing for one code: exactly one is credited', async () => {
    const key = await makeCode(777);
    const users = await Promise.all(Array.from({ length: 20 }, () => createTestUser(server, { quota: 0 })));
    const answers = await Promise.all(users.map((user) => user.client.post('/api/user/topup', { key })));
    const winners = answers.filter((answer) => answer.body.success);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.body.data).toBe(777);
    for (const answer of answers.filter((candidate) => !candidate.body.success)) {
      expect(answer.body.message).toBe('兑换失败，该兑换码已被使用');
    }
    const quotas = await Promise.all(users.map((user) => quotaOf(user.id)));
    expect(quotas.reduce((sum, quota) => sum + quota, 0)).toBe(777);
    const winner = users[quotas.indexOf(777)]!;
    const code = await server.context.database.db
      .selectFrom('redemptions')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(Number(code.used_user_id)).toBe(winner.id);
    const logs = await server.context.logDatabase.db
      .selectFrom('logs')
      .select('user_id')
      .where('type', '=', 1)
      .where(
        'user_id',
        'in',
        users.map((user) => user.id),
      )
      .execute();
    expect(logs.map((log) => Number(log.user_id))).toEqual([winner.id]);
  });

  test('one user redeeming many codes at once gets each exactly once', async () => {
    const user = await createTestUser(server, { quota: 0 });
    const keys = await Promise.all(Array.from({ length: 10 }, () => makeCode(10)));
    const answers = await Promise.all([...keys, ...keys].map((key) => user.client.post('/api/user/topup', { key })));
    expect(answers.filter((answer) => answer.body.success)).toHaveLength(10);
    expect(await quotaOf(user.id)).toBe(100);
  });
});
