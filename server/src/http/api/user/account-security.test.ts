import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { setOptions, signUp, uniqueName } from '../../../../test/account-helpers.js';
import { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { startOAuthServer } from '../../../../test/oauth-server.js';
import { startTestServer } from '../../../../test/test-server.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';

// Issue 32, points 1 and 2 (decisions 0002 and 0030): sessions one by one, TOTP with backup codes, the
// admin requirement and the re-authentication window. Named after what a user or an attacker tries.

const notSignedIn = { success: false, message: '无权进行此操作，未登录且未提供 access token' };

/** The server's clock (Date.now, which TOTP and the re-authentication window read) moved by `offsetMs`. */
function moveClock(offsetMs: number) {
  const real = Date.now.bind(Date);
  vi.spyOn(Date, 'now').mockImplementation(() => real() + offsetMs);
}
afterEach(() => {
  vi.restoreAllMocks();
});

/** An authenticator holding the secret: each `next()` moves the clock one 30 s step and reads the code. */
function authenticator(secret: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  let steps = 0;
  return {
    now: () => totp.generate(),
    next: () => {
      steps++;
      vi.restoreAllMocks();
      moveClock(steps * 30_000);
      return totp.generate();
    },
  };
}

describe.each(await availableEngines())('account security on $label', (engine) => {
  const server = startedForSuite(() => startTestServer({ engine }));

  test('signing out on one device leaves the other signed in; sessions are listed and ended one by one', async () => {
    const username = uniqueName('ses');
    const { client: laptop, id } = await signUp(server, username);
    const phone = new ApiClient(server.url);
    await phone.post('/api/user/login', { username, password: 'password123' }, { 'user-agent': 'PhoneBrowser/1.0' });
    const tablet = new ApiClient(server.url);
    await tablet.login(username, 'password123');

    const listed = (await phone.get('/api/user/sessions')).body;
    expect(listed.success).toBe(true);
    expect(listed.data).toHaveLength(3);
    const phoneRow = listed.data.find((row: { current: boolean }) => row.current);
    expect(phoneRow).toMatchObject({ user_agent: 'PhoneBrowser/1.0', ip: '127.0.0.1', current: true });
    expect(phoneRow.created_at).toBeGreaterThan(0);
    expect(phoneRow.last_seen_at).toBeGreaterThanOrEqual(phoneRow.created_at);
    expect(listed.data.filter((row: { current: boolean }) => row.current)).toHaveLength(1);

    // Signing out the phone ends the phone alone.
    expect((await phone.get('/api/user/logout')).body.success).toBe(true);
    expect((await phone.get('/api/user/self')).body).toEqual(notSignedIn);
    expect((await laptop.get('/api/user/self')).body.data).toMatchObject({ id });
    expect((await tablet.get('/api/user/self')).body.data).toMatchObject({ id });
    expect((await laptop.get('/api/user/sessions')).body.data).toHaveLength(2);

    // The laptop ends the tablet by its id.
    const tabletId = (await tablet.get('/api/user/sessions')).body.data.find((row: { current: boolean }) => row.current)
      .id as string;
    expect((await laptop.delete(`/api/user/sessions/${tabletId}`)).body).toEqual({
      success: true,
      message: '',
      data: null,
    });
    expect((await tablet.get('/api/user/self')).body).toEqual(notSignedIn);
    expect((await laptop.get('/api/user/self')).body.success).toBe(true);
    expect((await laptop.delete(`/api/user/sessions/${tabletId}`)).body).toEqual({
      success: false,
      message: '会话不存在或已结束',
    });
  });

  test('"sign out all others" keeps this session and ends the rest', async () => {
    const username = uniqueName('oth');
    const { client: keeper } = await signUp(server, username);
    const others = [new ApiClient(server.url), new ApiClient(server.url)];
    for (const other of others) await other.login(username, 'password123');

    expect((await keeper.post('/api/user/sessions/logout_others')).body).toMatchObject({
      success: true,
      data: { ended: 2 },
    });
    for (const other of others) expect((await other.get('/api/user/self')).body).toEqual(notSignedIn);
    expect((await keeper.get('/api/user/self')).body.success).toBe(true);
    const left = (await keeper.get('/api/user/sessions')).body.data;
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);

    // DELETE /api/user/sessions does the same.
    const another = new ApiClient(server.url);
    await another.login(username, 'password123');
    expect((await keeper.delete('/api/user/sessions')).body.data).toEqual({ ended: 1 });
    expect((await another.get('/api/user/self')).body).toEqual(notSignedIn);
  });

  test("one user cannot end another user's session, even knowing its id", async () => {
    const { client: victim } = await signUp(server, uniqueName('vic'));
    const { client: attacker } = await signUp(server, uniqueName('att'));
    const victimId = (await victim.get('/api/user/sessions')).body.data[0].id as string;
    expect((await attacker.delete(`/api/user/sessions/${victimId}`)).body).toEqual({
      success: false,
      message: '会话不存在或已结束',
    });
    expect((await victim.get('/api/user/self')).body.success).toBe(true);
    // Nor list it: each lists only its own.
    const listedByAttacker = (await attacker.get('/api/user/sessions')).body.data as { id: string }[];
    expect(listedByAttacker.map((row) => row.id)).not.toContain(victimId);
  });

  test('TOTP: setup, enable with a code, sign-in asks for it, a code works once, backup codes once each', async () => {
    const username = uniqueName('otp');
    const { client } = await signUp(server, username);
    const setup = (await client.post('/api/user/2fa/setup')).body;
    expect(setup.success).toBe(true);
    const { secret, otpauth_url: url, backup_codes: backupCodes } = setup.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(url).toContain('otpauth://totp/');
    expect(url).toContain(`secret=${secret}`);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    const phone = authenticator(secret);

    // Not in force until enabled: a sign-in needs no code yet.
    await new ApiClient(server.url).login(username, 'password123');
    expect((await client.post('/api/user/2fa/enable', { code: '000000' })).body).toEqual({
      success: false,
      message: '验证码错误或已使用',
    });
    // A backup code does not prove the authenticator holds the secret.
    expect((await client.post('/api/user/2fa/enable', { code: backupCodes[0] })).body.success).toBe(false);
    expect((await client.post('/api/user/2fa/enable', { code: phone.now() })).body.success).toBe(true);
    expect((await client.get('/api/user/2fa')).body.data).toEqual({ enabled: true, backup_codes_left: 10 });
    // The secret is never sent again: setting up anew is refused while on.
    expect((await client.post('/api/user/2fa/setup')).body.success).toBe(false);
    expect(JSON.stringify((await client.get('/api/user/2fa')).body)).not.toContain(secret);
    const stored = await server.context.database.db.selectFrom('user_two_factors').select('totp_secret').execute();
    for (const row of stored) expect(row.totp_secret).not.toContain(secret);

    const browser = new ApiClient(server.url);
    expect((await browser.post('/api/user/login', { username, password: 'password123' })).body).toEqual({
      success: false,
      message: '请输入两步验证码',
      data: { require_2fa: true },
    });
    expect((await browser.get('/api/user/self')).body).toEqual(notSignedIn);
    const english = new ApiClient(server.url, undefined, 'en');
    expect((await english.post('/api/user/login', { username, password: 'password123' })).body).toEqual({
      success: false,
      message: 'Enter your two-factor code',
      data: { require_2fa: true },
    });
    // A wrong password with a right code tells nothing more than a wrong password.
    const wrongPassword = await browser.post('/api/user/login', { username, password: 'nope12345', totp_code: '1' });
    expect(wrongPassword.body).toEqual({ success: false, message: '用户名或密码错误，或用户已被封禁' });
    expect(
      (await browser.post('/api/user/login', { username, password: 'password123', totp_code: '123456' })).body,
    ).toEqual({ success: false, message: '验证码错误或已使用' });

    const code = phone.next();
    const signedIn = await browser.post('/api/user/login', { username, password: 'password123', totp_code: code });
    expect(signedIn.body).toMatchObject({ success: true, data: { username } });
    expect((await browser.get('/api/user/self')).body.success).toBe(true);
    // The same code seen over a shoulder does not sign anyone in again.
    const replay = new ApiClient(server.url);
    expect(
      (await replay.post('/api/user/login', { username, password: 'password123', totp_code: code })).body.success,
    ).toBe(false);

    // A backup code signs in once.
    const withBackup = await replay.post('/api/user/login', {
      username,
      password: 'password123',
      totp_code: backupCodes[3],
    });
    expect(withBackup.body.success).toBe(true);
    expect((await client.get('/api/user/2fa')).body.data).toEqual({ enabled: true, backup_codes_left: 9 });
    const again = new ApiClient(server.url);
    expect(
      (await again.post('/api/user/login', { username, password: 'password123', totp_code: backupCodes[3] })).body,
    ).toEqual({ success: false, message: '验证码错误或已使用' });

    // Turning it off needs a code; then a password signs in again.
    expect((await client.post('/api/user/2fa/disable', { code: '000000' })).body.success).toBe(false);
    expect((await client.post('/api/user/2fa/disable', { code: phone.next() })).body.success).toBe(true);
    expect((await client.get('/api/user/2fa')).body.data).toEqual({ enabled: false, backup_codes_left: 0 });
    await new ApiClient(server.url).login(username, 'password123');
  });

  test('ten wrong codes for one account refuse its codes, even a right one, whatever the address', async () => {
    const username = uniqueName('brt');
    const { client } = await signUp(server, username);
    const { secret } = (await client.post('/api/user/2fa/setup')).body.data;
    const phone = authenticator(secret);
    expect((await client.post('/api/user/2fa/enable', { code: phone.now() })).body.success).toBe(true);
    const attempt = (code: string) =>
      new ApiClient(server.url).post('/api/user/login', { username, password: 'password123', totp_code: code });
    for (let guess = 0; guess < 10; guess++)
      expect((await attempt(String(100000 + guess))).body.message).toBe('验证码错误或已使用');
    expect((await attempt(phone.next())).body).toEqual({
      success: false,
      message: '验证码错误次数过多，请 15 分钟后再试',
    });
    // The window passes: a right code signs in again.
    vi.restoreAllMocks();
    moveClock(16 * 60_000);
    const late = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    // Redis counts in its own time, which the moved clock does not reach: its key's expiry is done by hand.
    if (server.context.redis)
      await server.context.redis.del(`two-factor-failures:${(await client.get('/api/user/self')).body.data.id}`);
    expect((await attempt(late)).body.success).toBe(true);
  });

  test('price writes need a sign-in or re-authentication within five minutes', async () => {
    const root = await server.rootClient();
    const price = { model: `reauth-${uniqueName('m')}`, price: { input: 1, output: 2 } };
    // A fresh sign-in counts.
    expect((await root.put('/api/price/', price)).body.success).toBe(true);

    moveClock(6 * 60_000);
    const stale = await root.put('/api/price/', price);
    expect(stale.body).toEqual({
      success: false,
      message: '此操作需要再次验证身份：请输入密码、两步验证码或使用通行密钥',
      data: { require_reauth: true },
    });
    expect((await root.delete(`/api/price/?model=${price.model}`)).body.data).toEqual({ require_reauth: true });
    expect((await root.post('/api/price/import', { data: {} })).body.data).toEqual({ require_reauth: true });
    // Reading is not guarded.
    expect((await root.get('/api/price/')).body.success).toBe(true);

    expect((await root.post('/api/user/reauth', { password: 'wrong-pass' })).body).toEqual({
      success: false,
      message: '密码或验证码错误',
    });
    expect((await root.post('/api/user/reauth', {})).body.success).toBe(false);
    expect((await root.put('/api/price/', price)).body.data).toEqual({ require_reauth: true });
    expect((await root.post('/api/user/reauth', { password: '123456' })).body).toMatchObject({ success: true });
    expect((await root.put('/api/price/', price)).body.success).toBe(true);

    // Five minutes later it has lapsed again.
    vi.restoreAllMocks();
    moveClock(12 * 60_000);
    expect((await root.delete(`/api/price/?model=${price.model}`)).body.data).toEqual({ require_reauth: true });

    // A new access token is a credential for every route: asked for too. An access token is a credential of
    // its own and is not asked again.
    expect((await root.get('/api/user/token')).body).toMatchObject({ success: false, data: { require_reauth: true } });
    expect((await root.post('/api/user/reauth', { password: '123456' })).body.success).toBe(true);
    const token = (await root.get('/api/user/token')).body.data as string;
    expect(token).toMatch(/^\w{20,}/);
    vi.restoreAllMocks();
    moveClock(18 * 60_000);
    expect((await server.client(token).delete(`/api/price/?model=${price.model}`)).body.success).toBe(true);
    expect((await server.client(token).get('/api/user/token')).body.success).toBe(true);
  });

  test('price options through PUT /api/option/ need a recent sign-in too; other options do not', async () => {
    const root = await server.rootClient();
    const stored = async (key: string) =>
      ((await root.get('/api/option/')).body.data as { key: string; value: string }[]).find((o) => o.key === key)
        ?.value;
    const writes: Record<string, string> = {
      ModelRatio: JSON.stringify({ 'reauth-model': 3 }),
      CompletionRatio: JSON.stringify({ 'reauth-model': 2 }),
      GroupRatio: JSON.stringify({ default: 1, reauth: 0.5 }),
      QuotaPerUnit: '250000',
      WebSearchPrice: '12',
      DefaultModelPrice: JSON.stringify({ input: 1, output: 2 }),
    };
    const before = Object.fromEntries(await Promise.all(Object.keys(writes).map(async (k) => [k, await stored(k)])));

    moveClock(6 * 60_000);
    for (const [key, value] of Object.entries(writes)) {
      expect((await root.put('/api/option/', { key, value })).body, key).toMatchObject({
        success: false,
        data: { require_reauth: true },
      });
      expect(await stored(key), key).toBe(before[key]);
    }
    // Options that set no price are saved as before.
    expect((await root.put('/api/option/', { key: 'Notice', value: 'reauth notice' })).body.success).toBe(true);

    expect((await root.post('/api/user/reauth', { password: '123456' })).body.success).toBe(true);
    for (const [key, value] of Object.entries(writes)) {
      expect((await root.put('/api/option/', { key, value })).body, key).toMatchObject({ success: true });
      expect(await stored(key), key).toBe(value);
    }
    // Put back what other tests of this server price with, by an access token (never asked again).
    vi.restoreAllMocks();
    moveClock(12 * 60_000);
    expect((await root.post('/api/user/reauth', { password: '123456' })).body.success).toBe(true);
    const token = (await root.get('/api/user/token')).body.data as string;
    for (const [key, value] of Object.entries(before))
      expect((await server.client(token).put('/api/option/', { key, value: value ?? '' })).body, key).toMatchObject({
        success: true,
      });
  });

  test('a user with TOTP re-authenticates with a code', async () => {
    const username = uniqueName('rea');
    const { client } = await signUp(server, username);
    const { secret } = (await client.post('/api/user/2fa/setup')).body.data;
    const phone = authenticator(secret);
    expect((await client.post('/api/user/2fa/enable', { code: phone.now() })).body.success).toBe(true);
    expect((await client.post('/api/user/reauth', { totp_code: '000000' })).body.success).toBe(false);
    expect((await client.post('/api/user/reauth', { totp_code: phone.next() })).body).toEqual({
      success: true,
      message: '',
      data: { two_factor: true },
    });
  });
});

describe('AdminRequire2FA', () => {
  const server = startedForSuite(() => startTestServer());

  test('an administrator without a second factor is sent to set one up; with one, admin routes answer', async () => {
    const root = await server.rootClient();
    // Root turns the requirement on once it has a second factor itself.
    const rootSecret = (await root.post('/api/user/2fa/setup')).body.data.secret as string;
    const rootPhone = authenticator(rootSecret);
    expect((await root.post('/api/user/2fa/enable', { code: rootPhone.now() })).body.success).toBe(true);
    await setOptions(root, { AdminRequire2FA: true });

    const username = uniqueName('adm');
    const { client: admin } = await signUp(server, username);
    await root.post('/api/user/manage', { username, action: 'promote' });
    await admin.login(username, 'password123');
    expect((await admin.get('/api/user/')).body).toEqual({
      success: false,
      message: '管理员必须先启用两步验证：请在个人设置中设置',
      data: { require_2fa_setup: true },
    });
    // Their own account still answers, so they can set it up.
    expect((await admin.get('/api/user/self')).body.success).toBe(true);
    const { secret } = (await admin.post('/api/user/2fa/setup')).body.data;
    expect((await admin.post('/api/user/2fa/enable', { code: authenticator(secret).now() })).body.success).toBe(true);
    expect((await admin.get('/api/user/')).body.success).toBe(true);

    // A common user is not concerned.
    const { client: common } = await signUp(server, uniqueName('com'));
    expect((await common.get('/api/user/self')).body.success).toBe(true);

    await setOptions(root, { AdminRequire2FA: false });
  });
});

describe('third-party sign-in with a second factor', () => {
  const providers = startedForSuite(() => startOAuthServer());
  const server = startedForSuite(async () => {
    const started = await startTestServer({
      env: { GITHUB_OAUTH_BASE_URL: providers.url, GITHUB_API_BASE_URL: providers.url },
    });
    await setOptions(await started.rootClient(), {
      GitHubClientId: providers.clientId,
      GitHubClientSecret: providers.clientSecret,
      GitHubOAuthEnabled: true,
    });
    return started;
  });
  const githubSignIn = async (client: ApiClient, code: string) => {
    const state = (await client.get('/api/oauth/state')).body.data as string;
    return client.get(`/api/oauth/github?code=${code}&state=${state}`);
  };

  test('a GitHub sign-in of a user with TOTP waits for the code, which alone then completes it', async () => {
    const login = `octo${uniqueName()}`;
    providers.github.set('gh-2fa', { login, name: 'Octo', email: `${login}@github.test` });
    const first = new ApiClient(server.url);
    expect((await githubSignIn(first, 'gh-2fa')).body.success).toBe(true);
    const { secret } = (await first.post('/api/user/2fa/setup')).body.data;
    const phone = authenticator(secret);
    expect((await first.post('/api/user/2fa/enable', { code: phone.now() })).body.success).toBe(true);

    const browser = new ApiClient(server.url);
    expect((await githubSignIn(browser, 'gh-2fa')).body).toEqual({
      success: false,
      message: '请输入两步验证码',
      data: { require_2fa: true },
    });
    expect((await browser.get('/api/user/self')).body).toEqual(notSignedIn);
    expect((await browser.post('/api/user/login', { totp_code: '000000' })).body.success).toBe(false);
    // Another browser without the pending sign-in gets nothing from a right code.
    const code = phone.next();
    expect((await new ApiClient(server.url).post('/api/user/login', { totp_code: code })).body.success).toBe(false);
    const completed = await browser.post('/api/user/login', { totp_code: code });
    expect(completed.body).toMatchObject({ success: true, data: { username: expect.stringMatching(/^github_\d+$/) } });
    expect((await browser.get('/api/user/self')).body.success).toBe(true);
  });
});
