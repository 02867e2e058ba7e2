import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../../../test/account-helpers.js';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { insertLogRows, logRow } from '../../../domain/log/log.writer.js';

describe.each(await availableEngines())('self-service on $label', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(async () => server?.close());

  const db = () => server.context.database.db;

  test('GET /api/user/self answers every user key, with password and access token blank', async () => {
    const anonymous = await server.client().get('/api/user/self');
    expect(anonymous.status).toBe(401);
    const { client, id } = await signUp(server, uniqueName('self'));
    const self = await client.get('/api/user/self');
    expect(self.body.success).toBe(true);
    expect(Object.keys(self.body.data).sort()).toEqual(
      [
        'id',
        'username',
        'password',
        'display_name',
        'role',
        'status',
        'email',
        'github_id',
        'wechat_id',
        'lark_id',
        'oidc_id',
        'verification_code',
        'access_token',
        'quota',
        'used_quota',
        'request_count',
        'group',
        'aff_code',
        'inviter_id',
        // Issue 31: the user's limits and budget, beside one-api's keys.
        'rpm_limit',
        'tpm_limit',
        'concurrency_limit',
        'budget_quota',
        'budget_period',
      ].sort(),
    );
    expect(self.body.data).toMatchObject({
      id,
      password: '',
      access_token: '',
      verification_code: '',
      group: 'default',
    });
  });

  test('GET /api/user/logout ends the session: the next call is not signed in', async () => {
    const { client } = await signUp(server, uniqueName('out'));
    expect((await client.get('/api/user/self')).body.success).toBe(true);
    const logout = await client.get('/api/user/logout');
    expect(logout.body).toEqual({ success: true, message: '', data: null });
    expect(client.cookies.has('session')).toBe(false);
    expect((await client.get('/api/user/self')).status).toBe(401);
  });

  test('PUT /api/user/self changes only the given fields and refuses bad or taken values', async () => {
    const username = uniqueName('edit');
    const { client, id } = await signUp(server, username);
    const renamed = uniqueName('ren');
    expect(
      (await client.put('/api/user/self', { display_name: '新名字', username: renamed, password: '' })).body,
    ).toEqual({ success: true, message: '', data: null });
    const row = await db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: renamed, display_name: '新名字' });
    await server.client().login(renamed, 'password123');

    expect(
      (await client.put('/api/user/self', { password: 'newpassword1', original_password: 'password123' })).body.success,
    ).toBe(true);
    await server.client().login(renamed, 'newpassword1');

    const other = uniqueName('oth');
    await signUp(server, other);
    expect((await client.put('/api/user/self', { username: other })).body).toEqual({
      success: false,
      message: '用户名已存在',
    });
    for (const body of [
      { password: 'short' },
      { username: 'x'.repeat(13) },
      { display_name: 'y'.repeat(21) },
      { username: 42 },
    ]) {
      const refused = await client.put('/api/user/self', body);
      expect(refused.body.success, JSON.stringify(body)).toBe(false);
    }
    const forged = await client.put('/api/user/self', { display_name: 'csrf' }, { 'x-xsrf-token': 'forged' });
    expect(forged.status).toBe(403);
    expect(
      (await db().selectFrom('users').select('display_name').where('id', '=', id).executeTakeFirstOrThrow())
        .display_name,
    ).toBe('新名字');
  });

  test('GET /api/user/token issues an access token; the previous one stops working at once', async () => {
    const { client } = await signUp(server, uniqueName('tok'));
    const first = (await client.get('/api/user/token')).body.data as string;
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    const byToken = await server.client(first).get('/api/user/self');
    expect(byToken.body.success).toBe(true);
    const bearer = await server.client(`Bearer ${first}`).get('/api/user/self');
    expect(bearer.body.success).toBe(true);
    // A cross-site link carries the session cookie but not the console's X-XSRF-TOKEN: the token stays.
    expect((await client.get('/api/user/token', { 'x-xsrf-token': '' })).status).toBe(403);
    expect((await server.client(first).get('/api/user/self')).body.success).toBe(true);
    const second = (await client.get('/api/user/token')).body.data as string;
    expect(second).not.toBe(first);
    expect((await server.client(first).get('/api/user/self')).body).toEqual({
      success: false,
      message: '无权进行此操作，access token 无效',
    });
    expect((await server.client(second).get('/api/user/self')).body.success).toBe(true);
  });

  test('GET /api/user/aff returns one stable 4-character code', async () => {
    const { client } = await signUp(server, uniqueName('aff'));
    const first = (await client.get('/api/user/aff')).body.data;
    expect(first).toMatch(/^[0-9a-zA-Z]{4}$/);
    expect((await client.get('/api/user/aff')).body.data).toBe(first);
  });

  test('root cannot delete itself; a user can, and is gone on the next request', async () => {
    const root = await server.rootClient();
    expect((await root.delete('/api/user/self')).body).toEqual({ success: false, message: '不能删除超级管理员账户' });

    const username = uniqueName('bye');
    const { client, id } = await signUp(server, username);
    const token = (await client.get('/api/user/token')).body.data as string;
    await db()
      .updateTable('users')
      .set({ email: `${username}@example.com`, github_id: `gh-${username}` })
      .where('id', '=', id)
      .execute();
    expect((await client.delete('/api/user/self')).body).toEqual({ success: true, message: '', data: null });
    const row = await db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.username).toMatch(/^deleted_[0-9a-f]{32}$/);
    expect(row).toMatchObject({ status: 3, email: '', github_id: '', access_token: null });
    expect((await client.get('/api/user/self')).status).toBe(401);
    expect((await server.client(token).get('/api/user/self')).body.success).toBe(false);
    expect((await server.client().post('/api/user/login', { username, password: 'password123' })).body.success).toBe(
      false,
    );
    // The name and the email are free again.
    await signUp(server, username);
  });

  test('GET /api/user/dashboard groups the last 7 UTC days of own consume logs by day and model', async () => {
    const { client, id } = await signUp(server, uniqueName('dash'));
    const now = Math.floor(Date.now() / 1000);
    const today = now - (now % 86_400);
    const day = (offset: number) => new Date((today - offset * 86_400) * 1000).toISOString().slice(0, 10);
    const log = (created_at: number, model_name: string, quota: number, type = 2, user_id = id) => ({
      user_id,
      created_at,
      type,
      model_name,
      quota,
      prompt_tokens: quota * 2,
      completion_tokens: quota * 3,
      content: '',
      username: 'x',
    });
    // Through the log writer, as the relay writes them, so the hourly rollups follow.
    const { db, dialect } = server.context.logDatabase;
    await insertLogRows(
      db,
      dialect,
      [
        log(today + 10, 'gpt-4o', 5),
        log(today + 20, 'gpt-4o', 7),
        log(today + 30, 'claude-3', 1),
        log(today - 86_400 + 5, 'gpt-4o', 11),
        log(today - 6 * 86_400, 'old-but-in', 2),
        log(today - 6 * 86_400 - 1, 'too-old', 100),
        log(today + 40, 'gpt-4o', 1000, 1),
        log(today + 50, 'gpt-4o', 1000, 2, id + 100_000),
      ].map((entry) => logRow(server.context, entry)!),
    );
    const answer = await client.get('/api/user/dashboard');
    expect(answer.body.success).toBe(true);
    expect(answer.body.data).toEqual([
      { Day: day(6), ModelName: 'old-but-in', RequestCount: 1, Quota: 2, PromptTokens: 4, CompletionTokens: 6 },
      { Day: day(1), ModelName: 'gpt-4o', RequestCount: 1, Quota: 11, PromptTokens: 22, CompletionTokens: 33 },
      { Day: day(0), ModelName: 'claude-3', RequestCount: 1, Quota: 1, PromptTokens: 2, CompletionTokens: 3 },
      { Day: day(0), ModelName: 'gpt-4o', RequestCount: 2, Quota: 12, PromptTokens: 24, CompletionTokens: 36 },
    ]);
    const empty = await (await signUp(server, uniqueName('none'))).client.get('/api/user/dashboard');
    expect(empty.body).toEqual({ success: true, message: '', data: [] });
  });
});
