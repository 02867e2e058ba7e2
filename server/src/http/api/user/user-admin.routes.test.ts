import { beforeAll, describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../../../test/account-helpers.js';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer } from '../../../../test/test-server.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';

describe.each(await availableEngines())('user administration on $label', (engine) => {
  const server = startedForSuite(() => startTestServer({ engine }));
  const root = startedForSuite(() => server.rootClient());
  /** An administrator (role 10) promoted by root. */
  let admin: ApiClient;
  const adminName = uniqueName('adm');
  beforeAll(async () => {
    admin = (await signUp(server, adminName)).client;
    expect((await root.post('/api/user/manage', { username: adminName, action: 'promote' })).body.data.role).toBe(10);
    // A role change ends the user's sessions (decision 0002): sign in again as an administrator.
    await admin.login(adminName, 'password123');
  });

  const db = () => server.context.database.db;
  const userRow = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const manageLogs = (id: number) =>
    server.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', id)
      .where('type', '=', 3)
      .execute();

  test('the list pages by 10, orders, hides deleted users and never shows access tokens', async () => {
    for (let index = 0; index < 11; index++)
      await server.client().post('/api/user/register', { username: uniqueName('lst'), password: 'password123' });
    const first = await admin.get('/api/user/?p=0');
    expect(first.body.data).toHaveLength(10);
    const ids = first.body.data.map((user: { id: number }) => user.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(
      first.body.data.every(
        (user: { access_token: string; password: string }) => user.access_token === '' && user.password === '',
      ),
    ).toBe(true);
    const second = await admin.get('/api/user/?p=1');
    expect(second.body.data[0].id).toBeLessThan(ids[9]);
    expect((await admin.get('/api/user/?p=-3')).body.data[0].id).toBe(ids[0]);
    expect((await admin.get('/api/user/?p=abc')).body.data[0].id).toBe(ids[0]);
    expect((await admin.get('/api/user?p=0')).body.data).toHaveLength(10);
    const byQuota = await admin.get('/api/user/?p=0&order=quota');
    expect(byQuota.body.data[0].username).toBe('root');

    const { id } = await signUp(server, uniqueName('gone'));
    await root.delete(`/api/user/${id}`);
    const all = [];
    for (let page = 0; ; page++) {
      const rows = (await admin.get(`/api/user/?p=${page}`)).body.data;
      all.push(...rows);
      if (rows.length < 10) break;
    }
    expect(all.some((user: { id: number }) => user.id === id)).toBe(false);

    const common = (await signUp(server, uniqueName('cmn'))).client;
    expect((await common.get('/api/user/')).body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
  });

  test('search matches id or name/email prefixes, treats the keyword as data, and caps the answer', async () => {
    const username = uniqueName('srch');
    const { id } = await signUp(server, username);
    await db()
      .updateTable('users')
      .set({ email: `${username}@mail.test` })
      .where('id', '=', id)
      .execute();
    const byId = await admin.get(`/api/user/search?keyword=${id}`);
    expect(byId.body.data.map((user: { id: number }) => user.id)).toContain(id);
    const byPrefix = await admin.get(`/api/user/search?keyword=${username.slice(0, 6)}`);
    expect(byPrefix.body.data.map((user: { id: number }) => user.id)).toContain(id);
    const byEmail = await admin.get(`/api/user/search?keyword=${encodeURIComponent(`${username}@mail`)}`);
    expect(byEmail.body.data.map((user: { id: number }) => user.id)).toEqual([id]);
    expect(byId.body.data.every((user: { access_token: string }) => user.access_token === '')).toBe(true);
    for (const keyword of ['%', '_', "' or 1=1 --", '\\', 'x%']) {
      const answer = await admin.get(`/api/user/search?keyword=${encodeURIComponent(keyword)}`);
      expect(answer.body, keyword).toEqual({ success: true, message: '', data: [] });
    }
    const tooLong = await admin.get(`/api/user/search?keyword=${'a'.repeat(51)}`);
    expect(tooLong.body.success).toBe(false);
    const everyone = await admin.get('/api/user/search?keyword=');
    expect(everyone.body.data.length).toBeGreaterThan(10);
    expect(everyone.body.data.length).toBeLessThanOrEqual(100);
  });

  test('viewing a user by id follows the role rules', async () => {
    const { id } = await signUp(server, uniqueName('view'));
    expect((await admin.get(`/api/user/${id}`)).body.data).toMatchObject({ id, access_token: '', password: '' });
    const adminId = (await admin.get('/api/user/self')).body.data.id;
    expect((await admin.get(`/api/user/${adminId}`)).body).toEqual({
      success: false,
      message: '无权获取同级或更高等级用户的信息',
    });
    expect((await admin.get('/api/user/1')).body.success).toBe(false);
    expect((await root.get('/api/user/1')).body.data.username).toBe('root');
    expect((await root.get('/api/user/abc')).body.success).toBe(false);
    expect((await root.get('/api/user/99999999')).body).toEqual({ success: false, message: '用户不存在' });
  });

  test('admins create common users only, with the new-user extras', async () => {
    const username = uniqueName('made');
    expect((await admin.post('/api/user/', { username, password: 'password123', display_name: 'Made' })).body).toEqual({
      success: true,
      message: '',
      data: null,
    });
    const row = await db().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 1, display_name: 'Made', inviter_id: 0 });
    expect(await db().selectFrom('tokens').select('name').where('user_id', '=', row.id).execute()).toEqual([
      { name: 'default' },
    ]);
    expect((await admin.post('/api/user/', { username, password: 'password123' })).body).toEqual({
      success: false,
      message: '用户名已存在',
    });
    expect(
      (await admin.post('/api/user/', { username: uniqueName(), password: 'password123', role: 10 })).body,
    ).toEqual({ success: false, message: '无法创建权限大于等于自己的用户' });
    for (const body of [
      { username: uniqueName() },
      { password: 'password123' },
      { username: uniqueName(), password: 'short' },
      { username: 'a'.repeat(13), password: 'password123' },
    ]) {
      expect((await admin.post('/api/user/', body)).body.success, JSON.stringify(body)).toBe(false);
    }
    const common = (await signUp(server, uniqueName('cmn'))).client;
    expect((await common.post('/api/user/', { username: uniqueName(), password: 'password123' })).body.message).toBe(
      '无权进行此操作，权限不足',
    );
  });

  test('PUT /api/user/ writes only explicit fields, allows quota 0 and logs only real quota changes', async () => {
    const { id, client } = await signUp(server, uniqueName('upd'));
    const before = await userRow(id);
    const changed = await root.put('/api/user/', {
      ...(await root.get(`/api/user/${id}`)).body.data,
      display_name: 'Changed',
      quota: 5000,
      group: 'vip',
      access_token: 'f'.repeat(32),
      aff_code: 'HACK',
      used_quota: 999,
      request_count: 999,
      github_id: 'stolen',
    });
    expect(changed.body.success).toBe(true);
    let row = await userRow(id);
    expect(row).toMatchObject({
      display_name: 'Changed',
      quota: 5000,
      group: 'vip',
      used_quota: 0,
      request_count: 0,
      github_id: '',
    });
    expect(row.access_token).toBe(before.access_token);
    expect(row.aff_code).toBe(before.aff_code);
    expect((await manageLogs(id)).map((log) => log.content)).toEqual([
      '管理员将用户额度从 ＄0.000000 额度修改为 ＄0.010000 额度（直接覆盖：请求未带 original_quota）',
    ]);

    expect((await root.put('/api/user/', { id, display_name: 'No quota' })).body.success).toBe(true);
    expect(await manageLogs(id)).toHaveLength(1);
    expect((await root.put('/api/user/', { id, quota: 0 })).body.success).toBe(true);
    row = await userRow(id);
    expect(row.quota).toBe(0);
    expect(await manageLogs(id)).toHaveLength(2);
    expect((await client.get('/api/user/self')).body.data.quota).toBe(0);

    expect((await root.put('/api/user/', { id, password: 'brandnew123' })).body.success).toBe(true);
    await server.client().login(row.username, 'brandnew123');

    for (const body of [
      { id, quota: -1 },
      { id, quota: 'abc' },
      { id, quota: 1.5 },
      { id: 0, quota: 1 },
      { quota: 1 },
      { id, role: 5 },
      { id, status: 3 },
      { id, username: 'x'.repeat(13) },
    ]) {
      const refused = await root.put('/api/user/', body);
      expect(refused.body.success, JSON.stringify(body)).toBe(false);
    }
    expect((await userRow(id)).quota).toBe(0);
    expect((await root.put('/api/user/', { id: 99999999, quota: 1 })).body).toEqual({
      success: false,
      message: '用户不存在',
    });
    const adminRow = await db().selectFrom('users').select('username').where('role', '=', 10).executeTakeFirstOrThrow();
    expect((await root.put('/api/user/', { id, username: adminRow.username })).body).toEqual({
      success: false,
      message: '用户名已存在',
    });
  });

  test('PUT /api/user/ role rules: no equal or higher targets, no raising to own level, roots stay roots', async () => {
    const { id } = await signUp(server, uniqueName('rol'));
    const adminId = (await admin.get('/api/user/self')).body.data.id;
    expect((await admin.put('/api/user/', { id, role: 10 })).body).toEqual({
      success: false,
      message: '无权将其他用户权限等级提升到大于等于自己的权限等级',
    });
    expect((await admin.put('/api/user/', { id: adminId, display_name: 'x' })).body).toEqual({
      success: false,
      message: '无权更新同权限等级或更高权限等级的用户信息',
    });
    expect((await admin.put('/api/user/', { id: 1, quota: 1 })).body).toEqual({
      success: false,
      message: '无权更新同权限等级或更高权限等级的用户信息',
    });
    expect((await admin.put('/api/user/', { id, display_name: 'ByAdmin', role: 1 })).body.success).toBe(true);
    expect((await root.put('/api/user/', { id: 1, role: 1 })).body.success).toBe(false);
    expect((await root.put('/api/user/', { id: 1, status: 2 })).body.success).toBe(false);
    expect(await userRow(1)).toMatchObject({ role: 100, status: 1 });
    expect((await root.put('/api/user/', { id, role: 10 })).body.success).toBe(true);
    expect((await userRow(id)).role).toBe(10);
  });

  test('manage: every action and its refusals; the change applies to the next request', async () => {
    const username = uniqueName('mng');
    const { client, id } = await signUp(server, username);
    const token = (await client.get('/api/user/token')).body.data as string;
    const act = (actor: ApiClient, action: string, target = username) =>
      actor.post('/api/user/manage', { username: target, action });

    const disabled = await act(admin, 'disable');
    expect(disabled.body).toMatchObject({ success: true, data: { status: 2, role: 1, access_token: '' } });
    expect((await client.get('/api/user/self')).body).toEqual({ success: false, message: '用户已被封禁' });
    expect((await server.client(token).get('/api/user/self')).body).toEqual({
      success: false,
      message: '用户已被封禁',
    });
    expect((await act(admin, 'enable')).body.data.status).toBe(1);
    expect((await server.client(token).get('/api/user/self')).body.success).toBe(true);

    expect((await act(admin, 'promote')).body).toEqual({
      success: false,
      message: '普通管理员用户无法提升其他用户为管理员',
    });
    expect((await act(admin, 'demote')).body).toEqual({ success: false, message: '该用户已经是普通用户' });
    expect((await act(root, 'promote')).body.data.role).toBe(10);
    expect((await server.client(token).get('/api/user/')).body.success).toBe(true);
    expect((await act(root, 'promote')).body).toEqual({ success: false, message: '该用户已经是管理员' });
    expect((await act(admin, 'demote')).body).toEqual({
      success: false,
      message: '无权更新同权限等级或更高权限等级的用户信息',
    });
    expect((await act(admin, 'disable')).body).toEqual({
      success: false,
      message: '无权更新同权限等级或更高权限等级的用户信息',
    });
    expect((await act(root, 'demote')).body.data.role).toBe(1);
    expect((await server.client(token).get('/api/user/')).body).toEqual({
      success: false,
      message: '无权进行此操作，权限不足',
    });

    expect((await act(root, 'disable', 'root')).body).toEqual({ success: false, message: '无法禁用超级管理员用户' });
    expect((await act(root, 'delete', 'root')).body).toEqual({ success: false, message: '无法删除超级管理员用户' });
    expect((await act(root, 'demote', 'root')).body).toEqual({ success: false, message: '无法降级超级管理员用户' });
    expect((await act(admin, 'disable', 'root')).body).toEqual({
      success: false,
      message: '无权更新同权限等级或更高权限等级的用户信息',
    });
    expect((await act(root, 'explode')).body.success).toBe(false);
    expect((await act(root, 'disable', 'nobody-here')).body).toEqual({ success: false, message: '用户不存在' });
    expect((await root.post('/api/user/manage', { username: 5, action: 'disable' })).body.success).toBe(false);

    expect((await act(admin, 'delete')).body.data.status).toBe(3);
    expect((await userRow(id)).username).toMatch(/^deleted_/);
    expect((await server.client(token).get('/api/user/self')).body.success).toBe(false);
    expect((await act(root, 'enable')).body).toEqual({ success: false, message: '用户不存在' });
  });

  test('DELETE /api/user/:id needs a strictly higher role and answers the envelope', async () => {
    const { id } = await signUp(server, uniqueName('del'));
    const adminId = (await admin.get('/api/user/self')).body.data.id;
    expect((await admin.delete(`/api/user/${adminId}`)).body).toEqual({
      success: false,
      message: '无权删除同权限等级或更高权限等级的用户',
    });
    expect((await root.delete('/api/user/1')).body).toEqual({
      success: false,
      message: '无权删除同权限等级或更高权限等级的用户',
    });
    expect((await admin.delete(`/api/user/${id}`)).body).toEqual({ success: true, message: '', data: null });
    expect((await userRow(id)).status).toBe(3);
    expect((await admin.delete(`/api/user/${id}`)).body).toEqual({ success: false, message: '用户不存在' });
    expect((await admin.delete('/api/user/x1')).body.success).toBe(false);
  });

  test('POST /api/topup adds quota atomically to an existing user and writes a top-up log', async () => {
    const { id, client } = await signUp(server, uniqueName('top'));
    expect((await admin.post('/api/topup', { user_id: id, quota: 1000, remark: '' })).body).toEqual({
      success: true,
      message: '',
      data: null,
    });
    await Promise.all(
      Array.from({ length: 10 }, () => admin.post('/api/topup', { user_id: id, quota: 10, remark: '批量' })),
    );
    expect((await userRow(id)).quota).toBe(1100);
    expect((await client.get('/api/user/self')).body.data.quota).toBe(1100);
    const logs = await server.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', id)
      .where('type', '=', 1)
      .orderBy('id')
      .execute();
    expect(logs).toHaveLength(11);
    expect(logs[0]).toMatchObject({ quota: 1000, content: '通过 API 充值 ＄0.002000 额度' });
    expect(logs[1]).toMatchObject({ quota: 10, content: '批量' });
    for (const body of [
      { user_id: id, quota: 0 },
      { user_id: id, quota: -5 },
      { user_id: id, quota: '10' },
      { user_id: 'x', quota: 10 },
      { quota: 10 },
    ]) {
      expect((await admin.post('/api/topup', body)).body.success, JSON.stringify(body)).toBe(false);
    }
    expect((await admin.post('/api/topup', { user_id: 99999999, quota: 10 })).body).toEqual({
      success: false,
      message: '用户不存在',
    });
    expect((await client.post('/api/topup', { user_id: id, quota: 10 })).body.message).toBe('无权进行此操作，权限不足');
    expect((await userRow(id)).quota).toBe(1100);
  });
});
