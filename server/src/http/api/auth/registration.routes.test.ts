import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setOptions, uniqueName } from '../../../../test/account-helpers.js';
import { availableEngines } from '../../../../test/engines.js';
import { startOAuthServer } from '../../../../test/oauth-server.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';

describe.each(await availableEngines())('sign-up on $label', (engine) => {
  const providers = startedForSuite(() => startOAuthServer());
  const server = startedForSuite(() =>
    startTestServer({ engine, env: { TURNSTILE_VERIFY_URL: `${providers.url}/turnstile/v0/siteverify` } }),
  );

  const db = () => server.context.database.db;
  const logs = (userId: number) =>
    server.context.logDatabase.db.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  test('a new user signs in, is role 1 and owns an unlimited, never-expiring token "default"', async () => {
    const username = uniqueName('new');
    const client = server.client();
    const registered = await client.post('/api/user/register', { username, password: 'password123' });
    expect(registered.body).toEqual({ success: true, message: '', data: null });
    const login = await client.login(username, 'password123');
    expect(login.data).toMatchObject({ username, display_name: username, role: 1, status: 1, access_token: '' });
    const row = await db().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
    expect(row.aff_code).toMatch(/^[0-9a-zA-Z]{4}$/);
    expect(row.access_token).toMatch(/^[0-9a-f]{32}$/);
    expect(row.password).toMatch(/^\$2[ab]\$10\$/);
    const tokens = await db().selectFrom('tokens').selectAll().where('user_id', '=', row.id).execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ name: 'default', status: 1, remain_quota: -1, expired_time: -1 });
    expect(Boolean(tokens[0]!.unlimited_quota)).toBe(true);
    expect(tokens[0]!.key).toHaveLength(48);
  });

  test('new-user quota and invitation rewards are granted with their system logs', async () => {
    const root = await server.rootClient();
    await setOptions(root, {
      QuotaForNewUser: 1000,
      QuotaForInviter: 300,
      QuotaForInvitee: 200,
      DisplayInCurrencyEnabled: false,
    });
    try {
      const inviterName = uniqueName('inv');
      const inviter = server.client();
      await inviter.post('/api/user/register', { username: inviterName, password: 'password123' });
      await inviter.login(inviterName, 'password123');
      const affCode = (await inviter.get('/api/user/aff')).body.data as string;
      expect(affCode).toMatch(/^[0-9a-zA-Z]{4}$/);

      const inviteeName = uniqueName('ee');
      const invited = await server
        .client()
        .post('/api/user/register', { username: inviteeName, password: 'password123', aff_code: affCode });
      expect(invited.body.success).toBe(true);
      const invitee = await db()
        .selectFrom('users')
        .selectAll()
        .where('username', '=', inviteeName)
        .executeTakeFirstOrThrow();
      const inviterRow = await db()
        .selectFrom('users')
        .selectAll()
        .where('username', '=', inviterName)
        .executeTakeFirstOrThrow();
      expect(invitee.quota).toBe(1200);
      expect(invitee.inviter_id).toBe(inviterRow.id);
      expect(inviterRow.quota).toBe(1300);
      expect((await logs(invitee.id)).map((log) => [log.type, log.content])).toEqual([
        [4, '新用户注册赠送 1000 点额度'],
        [4, '使用邀请码赠送 200 点额度'],
      ]);
      expect((await logs(inviterRow.id)).map((log) => [log.type, log.content])).toEqual([
        [4, '新用户注册赠送 1000 点额度'],
        [4, '邀请用户赠送 300 点额度'],
      ]);
      // The inviter's cached row is refreshed at once: the new balance shows on the next request.
      expect((await inviter.get('/api/user/self')).body.data.quota).toBe(1300);

      const unknownCode = await server
        .client()
        .post('/api/user/register', { username: uniqueName('nc'), password: 'password123', aff_code: 'zzzz' });
      expect(unknownCode.body.success).toBe(true);
    } finally {
      await setOptions(root, {
        QuotaForNewUser: 0,
        QuotaForInviter: 0,
        QuotaForInvitee: 0,
        DisplayInCurrencyEnabled: true,
      });
    }
  });

  test('bad sign-up input is refused with a message and creates nothing', async () => {
    const before = await db()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const client = server.client();
    const cases: unknown[] = [
      { username: 'abcdefghijklm', password: 'password123' },
      { username: 'shortpw', password: '1234567' },
      { username: 'longpw', password: 'x'.repeat(21) },
      { username: '', password: 'password123' },
      { password: 'password123' },
      { username: 123, password: 'password123' },
      { username: 'okname', password: 12345678 },
      { username: "a' or 1=1--", password: 'password123', email: 'not-an-email' },
      [],
    ];
    for (const body of cases) {
      const response = await client.post('/api/user/register', body);
      expect(response.status, JSON.stringify(body)).toBe(200);
      expect(response.body.success, JSON.stringify(body)).toBe(false);
      expect(response.body.message).toMatch(/无效的参数/);
    }
    const malformed = await client.request('POST', '/api/user/register', '{"username":', {
      'content-type': 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.success).toBe(false);
    const after = await db()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });

  test('a taken username gets a clear message, in both languages', async () => {
    const username = uniqueName('dup');
    await server.client().post('/api/user/register', { username, password: 'password123' });
    const again = await server.client().post('/api/user/register', { username, password: 'password456' });
    expect(again.body).toEqual({ success: false, message: '用户名已存在' });
    const english = await server
      .client()
      .request('POST', '/api/user/register', { username, password: 'password456' }, { 'accept-language': 'en-US' });
    expect(english.body).toEqual({ success: false, message: 'username already taken' });
  });

  test('20 parallel sign-ups with one username create exactly one user', async () => {
    const username = uniqueName('race');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.client().post('/api/user/register', { username, password: 'password123' }),
      ),
    );
    expect(answers.filter((answer) => answer.body.success)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => !candidate.body.success))
      expect(answer.body.message).toBe('用户名已存在');
    const rows = await db().selectFrom('users').select('id').where('username', '=', username).execute();
    expect(rows).toHaveLength(1);
    const tokens = await db().selectFrom('tokens').select('id').where('user_id', '=', rows[0]!.id).execute();
    expect(tokens).toHaveLength(1);
  });

  test('the registration switches are honoured', async () => {
    const root = await server.rootClient();
    await setOptions(root, { PasswordRegisterEnabled: false });
    const noPassword = await server
      .client()
      .post('/api/user/register', { username: uniqueName(), password: 'password123' });
    expect(noPassword.body).toEqual({
      success: false,
      message: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    });
    await setOptions(root, { PasswordRegisterEnabled: true, RegisterEnabled: false });
    const closed = await server
      .client()
      .post('/api/user/register', { username: uniqueName(), password: 'password123' });
    expect(closed.body).toEqual({ success: false, message: '管理员关闭了新用户注册' });
    await setOptions(root, { RegisterEnabled: true });
  });

  test('Turnstile, when enabled, is checked once per session against the verify endpoint', async () => {
    const root = await server.rootClient();
    await setOptions(root, {
      TurnstileSiteKey: 'site-key',
      TurnstileSecretKey: providers.turnstileSecret,
      TurnstileCheckEnabled: true,
    });
    try {
      const client = server.client();
      const missing = await client.post('/api/user/register', { username: uniqueName(), password: 'password123' });
      expect(missing.body).toEqual({ success: false, message: 'Turnstile token 为空' });
      const wrong = await client.post('/api/user/register?turnstile=forged', {
        username: uniqueName(),
        password: 'password123',
      });
      expect(wrong.body).toEqual({ success: false, message: 'Turnstile 校验失败，请刷新重试！' });
      const passed = await client.post(`/api/user/register?turnstile=${providers.turnstileGoodToken}`, {
        username: uniqueName(),
        password: 'password123',
      });
      expect(passed.body.success).toBe(true);
      const verifyCall = providers.requests.findLast((request) => request.path === '/turnstile/v0/siteverify');
      expect(verifyCall?.body).toMatchObject({
        secret: providers.turnstileSecret,
        response: providers.turnstileGoodToken,
        remoteip: '127.0.0.1',
      });
      const sameSession = await client.post('/api/user/register', { username: uniqueName(), password: 'password123' });
      expect(sameSession.body.success).toBe(true);
    } finally {
      await setOptions(root, { TurnstileCheckEnabled: false });
    }
  });

  test('a one-api bcrypt hash ($2a$, cost 10) still signs in', async () => {
    const username = uniqueName('legacy');
    await db()
      .insertInto('users')
      .values({
        username,
        password: '$2a$10$oQq.0FulR3jqJQcbE7nWZeG5v/K5cbtvHVJtvLD3D5aIezoAVCdGa',
        display_name: username,
        access_token: null,
        aff_code: null,
      })
      .execute();
    const login = await server.client().post('/api/user/login', { username, password: 'one-api-pass' });
    expect(login.body).toMatchObject({ success: true, data: { username } });
    const wrong = await server.client().post('/api/user/login', { username, password: 'one-api-pasS' });
    expect(wrong.body).toEqual({ success: false, message: '用户名或密码错误，或用户已被封禁' });
  });
});

describe('the critical rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { CRITICAL_RATE_LIMIT: '3' } });
  });
  afterAll(async () => server?.close());

  test('the 4th sign-in from one IP within the window gets 429 with the envelope', async () => {
    const client = server.client();
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await client.post('/api/user/login', { username: 'root', password: 'wrong-password' });
      expect(response.status).toBe(200);
    }
    const limited = await client.post('/api/user/login', { username: 'root', password: '123456' });
    expect(limited.status).toBe(429);
    expect(limited.body.success).toBe(false);
    expect(limited.body.message).toMatch(/请求过于频繁/);
    // Other, uncritical calls still work.
    expect((await client.get('/api/status')).status).toBe(200);
  });
});
