import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { getCachedTokenByKey } from '../../../domain/token/token.cache.js';
import { maxTokensPerUser } from '../../../domain/token/token.constants.js';
import { createToken } from '../../../domain/token/token.service.js';
import { nowSeconds } from '../../../lib/time.js';
import { createTestUser, type TestUser } from '../../../../test/test-users.js';

describe.each(await availableEngines())('tokens on $label', (engine) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    alice = await createTestUser(server);
    bob = await createTestUser(server);
  });
  afterAll(async () => server?.close());

  const countTokens = async (userId: number) =>
    (await server.context.database.db.selectFrom('tokens').select('id').where('user_id', '=', userId).execute()).length;

  test('requires a signed-in user', async () => {
    const response = await server.client().get('/api/token/');
    expect(response.status).toBe(401);
    expect(response.body.success).toBe(false);
  });

  test('creates a token with a fresh 48-character key and every key of the token object', async () => {
    const response = await alice.client.post('/api/token/', {
      name: '测试令牌',
      remain_quota: 5000,
      unlimited_quota: false,
      expired_time: 0,
      models: 'gpt-4o, gpt-4o-mini,,gpt-4o',
      subnet: '10.0.0.0/8, 192.168.1.0/24',
    });
    expect(response.body).toMatchObject({ success: true, message: '' });
    const token = response.body.data;
    expect(Object.keys(token).sort()).toEqual(
      [
        'accessed_time',
        'budget_period',
        'budget_quota',
        'concurrency_limit',
        'created_time',
        'expired_time',
        'id',
        'key',
        'models',
        'name',
        'remain_quota',
        'rpm_limit',
        'status',
        'subnet',
        'tpm_limit',
        'unlimited_quota',
        'used_quota',
        'user_id',
      ].sort(),
    );
    expect(token).toMatchObject({
      user_id: alice.id,
      name: '测试令牌',
      status: 1,
      remain_quota: 5000,
      unlimited_quota: false,
      used_quota: 0,
      expired_time: -1,
      models: 'gpt-4o,gpt-4o-mini',
      subnet: '10.0.0.0/8,192.168.1.0/24',
    });
    expect(token.key).toMatch(/^[0-9a-zA-Z]{48}$/);
    expect(Math.abs(token.created_time - nowSeconds())).toBeLessThan(5);
    const unlimited = await alice.client.post('/api/token/', {
      name: 'default',
      unlimited_quota: true,
      expired_time: nowSeconds() + 3600,
    });
    expect(unlimited.body.data).toMatchObject({ unlimited_quota: true, remain_quota: 0 });
    expect(unlimited.body.data.key).not.toBe(token.key);
  });

  test('refuses bad input with one-api messages and creates nothing', async () => {
    const before = await countTokens(alice.id);
    const cases: [unknown, string | RegExp][] = [
      [{ name: '一二三四五六七八九十一' }, '参数错误：令牌名称过长'],
      [{ name: 'x', subnet: '10.0.0.1' }, '参数错误：无效的网段：10.0.0.1'],
      [{ name: 'x', subnet: '10.0.0.0/8,300.1.1.0/24' }, '参数错误：无效的网段：300.1.1.0/24'],
      [{ name: 'x', subnet: '::1/129' }, '参数错误：无效的网段：::1/129'],
      [{ name: 'x', remain_quota: -1 }, '参数错误：剩余额度不能为负数'],
      [{ name: 'x', remain_quota: -1, unlimited_quota: false }, '参数错误：剩余额度不能为负数'],
      [{ name: 'x', remain_quota: 1.5 }, /^无效的参数：remain_quota/],
      [{ name: 'x', remain_quota: '100' }, /^无效的参数：remain_quota/],
      [{ name: 'x', unlimited_quota: 'yes' }, /^无效的参数：unlimited_quota/],
      [{ name: 'x', expired_time: 1000 }, /^参数错误：过期时间/],
      [{ name: 'x', expired_time: -5 }, /^无效的参数：expired_time/],
      [{ name: 12 }, /^无效的参数：name/],
      [{ name: 'x'.repeat(5000) }, /^无效的参数：name/],
    ];
    for (const [body, message] of cases) {
      const response = await alice.client.post('/api/token/', body);
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(response.body.success, JSON.stringify(body)).toBe(false);
      if (typeof message === 'string') expect(response.body.message).toBe(message);
      else expect(response.body.message).toMatch(message);
    }
    const malformed = await alice.client.request('POST', '/api/token/', '{"name":', {
      'content-type': 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.success).toBe(false);
    expect(await countTokens(alice.id)).toBe(before);
  });

  test('lists own tokens 10 per page, in the requested order', async () => {
    const user = await createTestUser(server);
    for (let index = 0; index < 12; index++) {
      const created = await user.client.post('/api/token/', { name: `t${index}`, remain_quota: index * 10 });
      expect(created.body.success).toBe(true);
    }
    const first = await user.client.get('/api/token/?p=0');
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0].name).toBe('t11');
    const second = await user.client.get('/api/token/?p=1');
    expect(second.body.data.map((token: { name: string }) => token.name)).toEqual(['t1', 't0']);
    expect((await user.client.get('/api/token/?p=-3')).body.data[0].name).toBe('t11');
    expect((await user.client.get('/api/token/?p=&order=')).body.data[0].name).toBe('t11');
    const byQuota = await user.client.get('/api/token/?p=0&order=remain_quota');
    expect(byQuota.body.data[0]).toMatchObject({ name: 't11', remain_quota: 110 });
    const unknownOrder = await user.client.get('/api/token/?order=name;drop table tokens');
    expect(unknownOrder.body.data[0].name).toBe('t11');
    expect((await user.client.get('/api/token/?p=abc')).body.success).toBe(false);
    const others = (await alice.client.get('/api/token/')).body.data;
    expect(others.every((token: { user_id: number }) => token.user_id === alice.id)).toBe(true);
  });

  test('search matches a name prefix literally, own tokens only', async () => {
    const user = await createTestUser(server);
    for (const name of ['a_b', 'axb', '100%', '100x', "o'brien"]) await user.client.post('/api/token/', { name });
    await bob.client.post('/api/token/', { name: 'a_bob' });
    const names = async (keyword: string) =>
      (
        (await user.client.get(`/api/token/search?keyword=${encodeURIComponent(keyword)}`)).body.data as {
          name: string;
        }[]
      )
        .map((token) => token.name)
        .sort();
    expect(await names('a_')).toEqual(['a_b']);
    expect(await names('a')).toEqual(['a_b', 'axb']);
    expect(await names('100%')).toEqual(['100%']);
    expect(await names('%')).toEqual([]);
    expect(await names("o'")).toEqual(["o'brien"]);
    expect(await names("' or 1=1 --")).toEqual([]);
    expect(await names('!')).toEqual([]);
    expect(await names('')).toHaveLength(5);
    const tooLong = await user.client.get(`/api/token/search?keyword=${'x'.repeat(101)}`);
    expect(tooLong.body.success).toBe(false);
  });

  test('another user can neither see, edit, toggle nor delete a token', async () => {
    const created = (await alice.client.post('/api/token/', { name: 'private', remain_quota: 10 })).body.data;
    const notFound = { success: false, message: '令牌不存在' };
    expect((await bob.client.get(`/api/token/${created.id}`)).body).toEqual(notFound);
    expect((await bob.client.put('/api/token/', { id: created.id, name: 'stolen' })).body).toEqual(notFound);
    expect((await bob.client.put('/api/token/?status_only=1', { id: created.id, status: 2 })).body).toEqual(notFound);
    expect((await bob.client.delete(`/api/token/${created.id}`)).body).toEqual(notFound);
    expect((await bob.client.get('/api/token/search?keyword=private')).body.data).toEqual([]);
    const own = await alice.client.get(`/api/token/${created.id}`);
    expect(own.body.data).toMatchObject({ name: 'private', status: 1, key: created.key });
  });

  test('bad ids are refused', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '1e3']) {
      const response = await alice.client.get(`/api/token/${id}`);
      expect(response.body.success, id).toBe(false);
      expect(response.body.message, id).toMatch(/^无效的参数/);
    }
    expect((await alice.client.delete('/api/token/abc')).body.success).toBe(false);
    expect((await alice.client.put('/api/token/', { id: 'x', name: 'y' })).body.success).toBe(false);
    expect((await alice.client.get('/api/token/999999')).body).toEqual({ success: false, message: '令牌不存在' });
  });

  test('a full update writes the fields given and keeps the omitted ones', async () => {
    const created = (
      await alice.client.post('/api/token/', {
        name: 'edit-me',
        remain_quota: 700,
        expired_time: nowSeconds() + 86400,
        models: 'gpt-4o',
        subnet: '10.0.0.0/8',
      })
    ).body.data;
    const renamed = await alice.client.put('/api/token/', {
      id: created.id,
      name: 'edited',
      status: 2,
      key: 'forged',
      used_quota: 9,
    });
    expect(renamed.body.success).toBe(true);
    expect(renamed.body.data).toMatchObject({
      name: 'edited',
      remain_quota: 700,
      expired_time: created.expired_time,
      models: 'gpt-4o',
      subnet: '10.0.0.0/8',
      status: 1,
      key: created.key,
      used_quota: 0,
    });
    const same = await alice.client.put('/api/token/', { id: created.id, name: 'edited' });
    expect(same.body.success).toBe(true);
    const allFields = {
      name: 'full',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
      models: '',
      subnet: '',
    };
    const full = await alice.client.put('/api/token/', { id: created.id, ...allFields });
    expect(full.body.data).toMatchObject(allFields);
    const bad = await alice.client.put('/api/token/', { id: created.id, subnet: 'nope', name: 'changed' });
    expect(bad.body).toEqual({ success: false, message: '参数错误：无效的网段：nope' });
    // Unlimited now: the -1 one-api gives default tokens (and the console sends back) is accepted and ignored.
    const ignored = await alice.client.put('/api/token/', { id: created.id, remain_quota: -1, name: 'full' });
    expect(ignored.body.data).toMatchObject({ remain_quota: 0, unlimited_quota: true });
    const negative = await alice.client.put('/api/token/', {
      id: created.id,
      remain_quota: -10,
      unlimited_quota: false,
    });
    expect(negative.body).toEqual({ success: false, message: '参数错误：剩余额度不能为负数' });
    expect((await alice.client.get(`/api/token/${created.id}`)).body.data).toMatchObject({
      name: 'full',
      remain_quota: 0,
      unlimited_quota: true,
    });
    const defaultToken = (
      await alice.client.post('/api/token/', { name: 'default', unlimited_quota: true, remain_quota: -1 })
    ).body.data;
    expect(defaultToken).toMatchObject({ unlimited_quota: true, remain_quota: 0 });
  });

  test('status-only updates toggle the status, but an expired or exhausted token cannot be re-enabled', async () => {
    const created = (await alice.client.post('/api/token/', { name: 'toggle', remain_quota: 50 })).body.data;
    const disabled = await alice.client.put('/api/token/?status_only=1', {
      id: created.id,
      status: 2,
      name: 'ignored',
    });
    expect(disabled.body.data).toMatchObject({ status: 2, name: 'toggle' });
    const enabled = await alice.client.put('/api/token/?status_only=true', { id: created.id, status: 1 });
    expect(enabled.body.data.status).toBe(1);
    for (const status of [0, 3, 4, '1']) {
      const refused = await alice.client.put('/api/token/?status_only=1', { id: created.id, status });
      expect(refused.body.success, String(status)).toBe(false);
    }

    const db = server.context.database.db;
    await db
      .updateTable('tokens')
      .set({ status: 3, expired_time: nowSeconds() - 10 })
      .where('id', '=', created.id)
      .execute();
    const expired = await alice.client.put('/api/token/?status_only=1', { id: created.id, status: 1 });
    expect(expired.body).toEqual({
      success: false,
      message: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    });
    await alice.client.put('/api/token/', { id: created.id, expired_time: -1 });
    expect((await alice.client.get(`/api/token/${created.id}`)).body.data.status).toBe(3);
    expect((await alice.client.put('/api/token/?status_only=1', { id: created.id, status: 1 })).body.success).toBe(
      true,
    );

    await db.updateTable('tokens').set({ status: 4, remain_quota: 0 }).where('id', '=', created.id).execute();
    const exhausted = await alice.client.put('/api/token/?status_only=1', { id: created.id, status: 1 });
    expect(exhausted.body).toEqual({
      success: false,
      message: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    });
    await alice.client.put('/api/token/', { id: created.id, unlimited_quota: true });
    expect((await alice.client.put('/api/token/?status_only=1', { id: created.id, status: 1 })).body.data.status).toBe(
      1,
    );
  });

  test('deletes for good', async () => {
    const created = (await alice.client.post('/api/token/', { name: 'delete-me' })).body.data;
    expect((await alice.client.delete(`/api/token/${created.id}/`)).body).toMatchObject({ success: true });
    expect((await alice.client.get(`/api/token/${created.id}`)).body.message).toBe('令牌不存在');
    expect((await alice.client.delete(`/api/token/${created.id}`)).body).toEqual({
      success: false,
      message: '令牌不存在',
    });
  });

  test('the cached key lookup follows every write at once', async () => {
    expect(await getCachedTokenByKey(server.context, 'x'.repeat(48))).toBeNull();
    const created = (await alice.client.post('/api/token/', { name: 'cached' })).body.data;
    expect((await getCachedTokenByKey(server.context, created.key))?.status).toBe(1);
    await alice.client.put('/api/token/?status_only=1', { id: created.id, status: 2 });
    expect((await getCachedTokenByKey(server.context, created.key))?.status).toBe(2);
    await alice.client.put('/api/token/', { id: created.id, models: 'gpt-4o' });
    expect((await getCachedTokenByKey(server.context, created.key))?.models).toBe('gpt-4o');
    await alice.client.delete(`/api/token/${created.id}`);
    expect(await getCachedTokenByKey(server.context, created.key)).toBeNull();
  });

  test('a user holds at most the token cap, also when creations race', async () => {
    const user = await createTestUser(server);
    const now = nowSeconds();
    const rows = Array.from({ length: maxTokensPerUser - 1 }, (_, index) => ({
      user_id: user.id,
      key: `cap${user.id}x${String(index).padStart(6, '0')}`.padEnd(48, 'z'),
      name: `cap${index}`,
      created_time: now,
      accessed_time: now,
    }));
    for (let start = 0; start < rows.length; start += 200) {
      await server.context.database.db
        .insertInto('tokens')
        .values(rows.slice(start, start + 200))
        .execute();
    }
    // One place left and thirty creations for it at once (the service itself: the HTTP layer happens to
    // space requests out enough to hide the race): exactly one gets it.
    const raceFields = { expired_time: -1, remain_quota: 0, unlimited_quota: true, models: null, subnet: null };
    const raced = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) =>
        createToken(server.context, user.id, { ...raceFields, name: `race ${index}` }),
      ),
    );
    expect(raced.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(await countTokens(user.id)).toBe(maxTokensPerUser);
    const refused = await user.client.post('/api/token/', { name: 'one too many' });
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toContain('令牌数量已达上限');
    expect(await countTokens(user.id)).toBe(maxTokensPerUser);
  });

  test('works with a signed-in session too (root)', async () => {
    const root = await server.rootClient();
    const created = await root.post('/api/token/', { name: 'root-token', unlimited_quota: true });
    expect(created.body.success).toBe(true);
    const list = await root.get('/api/token/');
    expect(list.body.data.some((token: { name: string }) => token.name === 'root-token')).toBe(true);
    expect((await alice.client.get(`/api/token/${created.body.data.id}`)).body.success).toBe(false);
  });
});

const redisEngines = (await availableEngines()).filter((engine) => engine.redis);
if (redisEngines.length === 0) test.skip('token cache invalidation across nodes needs Redis', () => {});

describe.each(redisEngines)('token cache across two nodes on $label', (engine) => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startTestServer({ engine });
    second = await startTestServer({ engine, shareDatabaseWith: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  test('a write on one node drops the cached key on the other', async () => {
    const user = await createTestUser(first);
    const created = (await user.client.post('/api/token/', { name: 'shared' })).body.data;
    expect((await getCachedTokenByKey(second.context, created.key))?.status).toBe(1);
    await user.client.put('/api/token/?status_only=1', { id: created.id, status: 2 });
    const invalidated = { timeout: 5000 };
    await expect
      .poll(async () => (await getCachedTokenByKey(second.context, created.key))?.status, invalidated)
      .toBe(2);
    await user.client.delete(`/api/token/${created.id}`);
    await expect.poll(async () => getCachedTokenByKey(second.context, created.key), invalidated).toBeNull();
  });
});
