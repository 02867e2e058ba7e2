import { describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import type { ApiClient } from '../../../../test/api-client.js';
import { startTestServer } from '../../../../test/test-server.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { createTestUser } from '../../../../test/test-users.js';

describe.each(await availableEngines())('redemption codes on $label', (engine) => {
  const server = startedForSuite(() => startTestServer({ engine }));
  const root = startedForSuite(() => server.rootClient());
  const admin = startedForSuite(() => createTestUser(server, { role: 10 }));
  const user = startedForSuite(() => createTestUser(server));

  const create = async (body: object, client: ApiClient = admin.client) => client.post('/api/redemption/', body);
  const rowsNamed = (name: string) =>
    server.context.database.db.selectFrom('redemptions').selectAll().where('name', '=', name).execute();

  test('only admins manage codes', async () => {
    expect((await server.client().get('/api/redemption/')).status).toBe(401);
    const refused = { success: false, message: '无权进行此操作，权限不足' };
    expect((await user.client.get('/api/redemption/')).body).toEqual(refused);
    expect((await user.client.get('/api/redemption/search?keyword=a')).body).toEqual(refused);
    expect((await user.client.get('/api/redemption/1')).body).toEqual(refused);
    expect((await create({ name: 'mine', quota: 1e9, count: 1 }, user.client)).body).toEqual(refused);
    expect((await user.client.put('/api/redemption/', { id: 1, quota: 5 })).body).toEqual(refused);
    expect((await user.client.delete('/api/redemption/1')).body).toEqual(refused);
    expect(await rowsNamed('mine')).toHaveLength(0);
  });

  test('creates a batch of distinct 32-hex codes owned by the creating admin', async () => {
    const response = await create({ name: '春节活动', quota: 500000, count: 3 });
    expect(response.body.success).toBe(true);
    const keys: string[] = response.body.data;
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    const rows = await rowsNamed('春节活动');
    expect(rows).toHaveLength(3);
    expect(
      rows.every((row) => Number(row.user_id) === admin.id && Number(row.status) === 1 && Number(row.quota) === 500000),
    ).toBe(true);
    const zero = await create({ name: 'zero', quota: 0, count: 1 });
    expect((await rowsNamed('zero'))[0]?.quota).toBe(100);
    expect(zero.body.data).toHaveLength(1);
    const rootMade = await create({ name: 'by-root', quota: 1, count: 1 }, root);
    expect(rootMade.body.success).toBe(true);
  });

  test('refuses bad batches and creates nothing', async () => {
    const cases: [object, string | RegExp][] = [
      [{ name: '', quota: 10, count: 1 }, '兑换码名称长度必须在1-20之间'],
      [{ name: '   ', quota: 10, count: 1 }, '兑换码名称长度必须在1-20之间'],
      [{ name: 'x'.repeat(21), quota: 10, count: 1 }, '兑换码名称长度必须在1-20之间'],
      [{ name: 'bad', quota: 10, count: 0 }, '兑换码个数必须大于0'],
      [{ name: 'bad', quota: 10, count: -3 }, '兑换码个数必须大于0'],
      [{ name: 'bad', quota: 10, count: 101 }, '一次兑换码批量生成的个数不能大于 100'],
      [{ name: 'bad', quota: -1, count: 1 }, /^无效的参数：quota/],
      [{ name: 'bad', quota: 1.5, count: 1 }, /^无效的参数：quota/],
      [{ name: 'bad', quota: '10', count: 1 }, /^无效的参数：quota/],
      [{ name: 'bad', quota: 10, count: 'x' }, /^无效的参数：count/],
      [{ quota: 10, count: 1 }, /^无效的参数：name/],
    ];
    for (const [body, message] of cases) {
      const response = await create(body);
      expect(response.body.success, JSON.stringify(body)).toBe(false);
      if (typeof message === 'string') expect(response.body.message).toBe(message);
      else expect(response.body.message).toMatch(message);
    }
    expect(await rowsNamed('bad')).toHaveLength(0);
    expect(
      (await create({ name: '二十个字的名字二十个字的名字二十个字的名字', quota: 1, count: 1 })).body.success,
    ).toBe(false);
    expect((await create({ name: '二十个字的名字二十个字的名字二十个字的名', quota: 1, count: 1 })).body.success).toBe(
      true,
    );
    expect((await create({ name: 'full batch', quota: 1, count: 100 })).body.data).toHaveLength(100);
  });

  test('lists 10 per page newest first, finds by id or name prefix, gets one', async () => {
    const page0 = (await admin.client.get('/api/redemption/?p=0')).body.data;
    expect(page0).toHaveLength(10);
    expect(page0[0].id).toBeGreaterThan(page0[9].id);
    expect(Object.keys(page0[0]).sort()).toEqual(
      [
        'count',
        'created_time',
        'id',
        'key',
        'name',
        'quota',
        'redeemed_time',
        'status',
        'used_user_id',
        'user_id',
      ].sort(),
    );
    const page1 = (await admin.client.get('/api/redemption/?p=1')).body.data;
    expect(page1[0].id).toBeLessThan(page0[9].id);
    expect((await admin.client.get('/api/redemption/?p=x')).body.success).toBe(false);

    await create({ name: 'sale_a', quota: 1, count: 1 });
    await create({ name: 'salexa', quota: 1, count: 1 });
    const search = async (keyword: string) =>
      (
        (await admin.client.get(`/api/redemption/search?keyword=${encodeURIComponent(keyword)}`)).body.data as {
          name: string;
        }[]
      ).map((code) => code.name);
    expect((await search('sale_')).sort()).toEqual(['sale_a']);
    expect((await search('sale')).sort()).toEqual(['sale_a', 'salexa']);
    expect(await search('%')).toEqual([]);
    expect(await search("'; drop table redemptions; --")).toEqual([]);
    const target = (await rowsNamed('salexa'))[0]!;
    const byId = (await admin.client.get(`/api/redemption/search?keyword=${target.id}`)).body.data;
    expect(byId.map((code: { id: number }) => code.id)).toContain(target.id);
    expect((await search('full batch')).length).toBeLessThanOrEqual(100);

    const one = await admin.client.get(`/api/redemption/${target.id}`);
    expect(one.body.data).toMatchObject({ id: target.id, name: 'salexa', key: target.key, count: 0, status: 1 });
    expect((await admin.client.get('/api/redemption/999999')).body).toEqual({
      success: false,
      message: '兑换码不存在',
    });
    expect((await admin.client.get('/api/redemption/abc')).body.message).toMatch(/^无效的参数/);
  });

  test('edits name and quota, keeping omitted fields', async () => {
    await create({ name: 'edit-me', quota: 300, count: 1 });
    const code = (await rowsNamed('edit-me'))[0]!;
    const renamed = await admin.client.put('/api/redemption/', { id: code.id, name: 'edited' });
    expect(renamed.body.data).toMatchObject({ name: 'edited', quota: 300, status: 1 });
    const requoted = await admin.client.put('/api/redemption/', { id: code.id, quota: 900, status: 3 });
    expect(requoted.body.data).toMatchObject({ name: 'edited', quota: 900, status: 1 });
    expect((await admin.client.put('/api/redemption/', { id: code.id, name: 'x'.repeat(21) })).body.message).toBe(
      '兑换码名称长度必须在1-20之间',
    );
    expect((await admin.client.put('/api/redemption/', { id: code.id, quota: -5 })).body.success).toBe(false);
    expect((await admin.client.put('/api/redemption/', { id: code.id, quota: 0 })).body.message).toBe(
      '兑换码额度必须大于 0',
    );
    expect((await admin.client.put('/api/redemption/', { id: 999999, name: 'ghost' })).body.message).toBe(
      '兑换码不存在',
    );
    expect((await admin.client.get(`/api/redemption/${code.id}`)).body.data).toMatchObject({
      name: 'edited',
      quota: 900,
    });
  });

  test('toggles unused codes only; deletes for good', async () => {
    const [key] = (await create({ name: 'toggle', quota: 50, count: 1 })).body.data as string[];
    const code = (await rowsNamed('toggle'))[0]!;
    const disabled = await admin.client.put('/api/redemption/?status_only=1', { id: code.id, status: 2 });
    expect(disabled.body.data.status).toBe(2);
    expect((await user.client.post('/api/user/topup', { key })).body).toEqual({
      success: false,
      message: '兑换失败，该兑换码已被使用',
    });
    expect(
      (await admin.client.put('/api/redemption/?status_only=true', { id: code.id, status: 1 })).body.data.status,
    ).toBe(1);
    for (const status of [0, 3, 4, '2']) {
      expect(
        (await admin.client.put('/api/redemption/?status_only=1', { id: code.id, status })).body.success,
        String(status),
      ).toBe(false);
    }
    expect((await user.client.post('/api/user/topup', { key })).body.success).toBe(true);
    const used = await admin.client.put('/api/redemption/?status_only=1', { id: code.id, status: 1 });
    expect(used.body).toEqual({ success: false, message: '该兑换码已被使用，无法修改状态' });
    expect((await admin.client.put('/api/redemption/?status_only=1', { id: 999999, status: 1 })).body.message).toBe(
      '兑换码不存在',
    );

    expect((await admin.client.delete(`/api/redemption/${code.id}/`)).body.success).toBe(true);
    expect((await admin.client.delete(`/api/redemption/${code.id}`)).body).toEqual({
      success: false,
      message: '兑换码不存在',
    });
    expect((await admin.client.delete('/api/redemption/x')).body.success).toBe(false);
  });
});
