import { describe, expect, test } from 'vitest';
import { setOptions, signUp, uniqueName } from '../../../../test/account-helpers.js';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { startOAuthServer } from '../../../../test/oauth-server.js';
import { startTestServer } from '../../../../test/test-server.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';

describe.each(await availableEngines())('third-party sign-in on $label', (engine) => {
  const providers = startedForSuite(() => startOAuthServer());
  const server = startedForSuite(async () => {
    const started = await startTestServer({
      engine,
      env: {
        GITHUB_OAUTH_BASE_URL: providers.url,
        GITHUB_API_BASE_URL: providers.url,
        LARK_OPEN_BASE_URL: providers.url,
        LARK_PASSPORT_BASE_URL: providers.url,
      },
    });
    await setOptions(await started.rootClient(), {
      ServerAddress: 'http://gate.test',
      GitHubClientId: providers.clientId,
      GitHubClientSecret: providers.clientSecret,
      GitHubOAuthEnabled: true,
      LarkClientId: providers.clientId,
      LarkClientSecret: providers.clientSecret,
      WeChatServerAddress: providers.url,
      WeChatServerToken: providers.wechatToken,
      WeChatAuthEnabled: true,
      OidcClientId: providers.clientId,
      OidcClientSecret: providers.clientSecret,
      OidcTokenEndpoint: `${providers.url}/oidc/token`,
      OidcUserinfoEndpoint: `${providers.url}/oidc/userinfo`,
      OidcEnabled: true,
    });
    return started;
  });

  const db = () => server.context.database.db;
  const stateFor = async (client: ApiClient) => {
    const answer = await client.get('/api/oauth/state');
    expect(answer.body.data).toMatch(/^[0-9a-zA-Z]{12}$/);
    return answer.body.data as string;
  };

  test('GitHub: the code is exchanged with the client credentials, then the user is read with Bearer', async () => {
    const login = `octo${uniqueName()}`;
    providers.github.set('gh-code-1', { login, name: 'Octo Cat', email: `${login}@github.test` });
    const client = server.client();
    const state = await stateFor(client);
    const answer = await client.get(`/api/oauth/github?code=gh-code-1&state=${state}`);
    expect(answer.body.success).toBe(true);
    expect(answer.body.data).toMatchObject({ display_name: 'Octo Cat', role: 1, status: 1 });
    const username = answer.body.data.username as string;
    expect(username).toMatch(/^github_\d+$/);
    expect(username).toBe(`github_${answer.body.data.id}`);

    const exchange = providers.requests.findLast((request) => request.path === '/login/oauth/access_token')!;
    expect(exchange.method).toBe('POST');
    expect(exchange.body).toEqual({
      client_id: providers.clientId,
      client_secret: providers.clientSecret,
      code: 'gh-code-1',
    });
    expect(exchange.headers.accept).toBe('application/json');
    const userCall = providers.requests.findLast((request) => request.path === '/user')!;
    expect(userCall.headers.authorization).toMatch(/^Bearer access-\d+$/);

    const row = await db().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ github_id: login, email: `${login}@github.test`, password: '' });
    expect(
      (await db().selectFrom('tokens').select('name').where('user_id', '=', row.id).execute()).map(
        (token) => token.name,
      ),
    ).toEqual(['default']);
    // The session works, and the same GitHub account signs in to the same user next time.
    expect((await client.get('/api/user/self')).body.data.username).toBe(username);
    const again = server.client();
    const second = await again.get(`/api/oauth/github?code=gh-code-1&state=${await stateFor(again)}`);
    expect(second.body.data.id).toBe(row.id);
  });

  test('the state is required, must match the session, and works only once', async () => {
    providers.github.set('gh-code-2', { login: `st${uniqueName()}`, name: '' });
    const client = server.client();
    const noState = await client.get('/api/oauth/github?code=gh-code-2');
    expect(noState.status).toBe(403);
    expect(noState.body).toEqual({ success: false, message: 'state is empty or not same' });
    const state = await stateFor(client);
    const wrong = await client.get(`/api/oauth/github?code=gh-code-2&state=${state}x`);
    expect(wrong.status).toBe(403);
    const stranger = await server.client().get(`/api/oauth/github?code=gh-code-2&state=${state}`);
    expect(stranger.status).toBe(403);
    const fresh = await stateFor(client);
    expect((await client.get(`/api/oauth/github?code=gh-code-2&state=${fresh}`)).body.success).toBe(true);
    const replay = await client.get(`/api/oauth/github?code=gh-code-2&state=${fresh}`);
    expect(replay.status).toBe(403);
  });

  test('GitHub refusals: disabled, bad code, unreachable, banned user, registration closed', async () => {
    const root = await server.rootClient();
    const client = server.client();
    const missingCode = await client.get(`/api/oauth/github?state=${await stateFor(client)}`);
    expect(missingCode.body.success).toBe(false);
    const badCode = await client.get(`/api/oauth/github?code=unknown&state=${await stateFor(client)}`);
    expect(badCode.body).toEqual({ success: false, message: '返回值非法，用户字段为空，请稍后重试！' });

    const login = `ban${uniqueName()}`;
    providers.github.set('gh-ban', { login, name: 'Ban Me' });
    const created = await client.get(`/api/oauth/github?code=gh-ban&state=${await stateFor(client)}`);
    await root.post('/api/user/manage', { username: created.body.data.username, action: 'disable' });
    const other = server.client();
    const banned = await other.get(`/api/oauth/github?code=gh-ban&state=${await stateFor(other)}`);
    expect(banned.body).toEqual({ success: false, message: '用户已被封禁' });

    await setOptions(root, { RegisterEnabled: false });
    providers.github.set('gh-closed', { login: `cl${uniqueName()}` });
    const closed = await other.get(`/api/oauth/github?code=gh-closed&state=${await stateFor(other)}`);
    expect(closed.body).toEqual({ success: false, message: '管理员关闭了新用户注册' });
    await setOptions(root, { RegisterEnabled: true, GitHubOAuthEnabled: false });
    const disabled = await other.get(`/api/oauth/github?code=gh-closed&state=${await stateFor(other)}`);
    expect(disabled.body).toEqual({ success: false, message: '管理员未开启通过 GitHub 登录以及注册' });
    await setOptions(root, { GitHubOAuthEnabled: true });

    await setOptions(root, { GitHubClientSecret: 'wrong' });
    const rejected = await other.get(`/api/oauth/github?code=gh-closed&state=${await stateFor(other)}`);
    expect(rejected.body.success).toBe(false);
    await setOptions(root, { GitHubClientSecret: providers.clientSecret });
  });

  test('a signed-in user binds GitHub (message "bind"); an account bound elsewhere is refused', async () => {
    const { client, id } = await signUp(server, uniqueName('gb'));
    const login = `bind${uniqueName()}`;
    providers.github.set('gh-bind', { login, name: 'Binder' });
    const bound = await client.get(`/api/oauth/github?code=gh-bind&state=${await stateFor(client)}`);
    expect(bound.body).toEqual({ success: true, message: 'bind', data: null });
    expect(
      (await db().selectFrom('users').select('github_id').where('id', '=', id).executeTakeFirstOrThrow()).github_id,
    ).toBe(login);

    const { client: second } = await signUp(server, uniqueName('gb'));
    const conflict = await second.get(`/api/oauth/github?code=gh-bind&state=${await stateFor(second)}`);
    expect(conflict.body).toEqual({ success: false, message: '该 GitHub 账户已被绑定' });
  });

  test('Lark: token request carries grant type and redirect URI; new user lark_<id>', async () => {
    const openId = `ou_${uniqueName()}`;
    providers.lark.set('lark-code', { open_id: openId, name: '飞书用户' });
    const client = server.client();
    const answer = await client.get(`/api/oauth/lark?code=lark-code&state=${await stateFor(client)}`);
    expect(answer.body.success).toBe(true);
    expect(answer.body.data.username).toBe(`lark_${answer.body.data.id}`);
    expect(answer.body.data.display_name).toBe('飞书用户');
    const exchange = providers.requests.findLast((request) => request.path === '/open-apis/authen/v2/oauth/token')!;
    expect(exchange.body).toEqual({
      grant_type: 'authorization_code',
      client_id: providers.clientId,
      client_secret: providers.clientSecret,
      code: 'lark-code',
      redirect_uri: 'http://gate.test/oauth/lark',
    });
    const userCall = providers.requests.findLast((request) => request.path === '/suite/passport/oauth/userinfo')!;
    expect(userCall.headers.authorization).toMatch(/^Bearer /);
    const { client: binder } = await signUp(server, uniqueName('lb'));
    const conflict = await binder.get(`/api/oauth/lark?code=lark-code&state=${await stateFor(binder)}`);
    expect(conflict.body).toEqual({ success: false, message: '该飞书账户已被绑定' });
  });

  test('OIDC: preferred username when free, else oidc_<id>', async () => {
    const preferred = uniqueName('pref');
    providers.oidc.set('oidc-1', {
      sub: `sub-${preferred}`,
      name: 'OIDC Person',
      preferred_username: preferred,
      email: `${preferred}@idp.test`,
    });
    const client = server.client();
    const first = await client.get(`/api/oauth/oidc?code=oidc-1&state=${await stateFor(client)}`);
    expect(first.body.data).toMatchObject({ username: preferred, display_name: 'OIDC Person' });
    providers.oidc.set('oidc-2', { sub: `sub2-${preferred}`, preferred_username: preferred });
    const other = server.client();
    const second = await other.get(`/api/oauth/oidc?code=oidc-2&state=${await stateFor(other)}`);
    expect(second.body.data.username).toBe(`oidc_${second.body.data.id}`);
    expect(second.body.data.display_name).toBe('OIDC User');

    const root = await server.rootClient();
    await setOptions(root, { OidcTokenEndpoint: 'http://127.0.0.1:1/token' });
    const third = server.client();
    const unreachable = await third.get(`/api/oauth/oidc?code=oidc-1&state=${await stateFor(third)}`);
    expect(unreachable.body).toEqual({ success: false, message: '无法连接至 OIDC 服务器，请稍后重试！' });
    await setOptions(root, { OidcTokenEndpoint: `${providers.url}/oidc/token` });
  });

  test('WeChat: the code goes to the WeChat server with its token; login, bind and refusals', async () => {
    const wechatId = `wx_${uniqueName()}`;
    providers.wechat.set('123456', wechatId);
    const client = server.client();
    const signedIn = await client.get(`/api/oauth/wechat?code=123456&state=${await stateFor(client)}`);
    expect(signedIn.body.data.username).toBe(`wechat_${signedIn.body.data.id}`);
    expect(signedIn.body.data.display_name).toBe('WeChat User');
    const call = providers.requests.findLast((request) => request.path === '/api/wechat/user')!;
    expect(call.query.get('code')).toBe('123456');
    expect(call.headers.authorization).toBe(providers.wechatToken);
    // The session works, and the same WeChat account signs in to the same user next time.
    expect((await client.get('/api/user/self')).body.data.username).toBe(signedIn.body.data.username);
    const again = server.client();
    const second = await again.get(`/api/oauth/wechat?code=123456&state=${await stateFor(again)}`);
    expect(second.body.data.id).toBe(signedIn.body.data.id);

    const other = server.client();
    const expired = await other.get(`/api/oauth/wechat?code=999999&state=${await stateFor(other)}`);
    expect(expired.body).toEqual({ success: false, message: '验证码错误或已过期' });
    const noCode = await other.get(`/api/oauth/wechat?state=${await stateFor(other)}`);
    expect(noCode.body.success).toBe(false);

    const { client: binder, id } = await signUp(server, uniqueName('wb'));
    const anonymous = server.client();
    const anonymousBind = await anonymous.get(`/api/oauth/wechat/bind?code=654321&state=${await stateFor(anonymous)}`);
    expect(anonymousBind.status).toBe(401);
    const conflict = await binder.get(`/api/oauth/wechat/bind?code=123456&state=${await stateFor(binder)}`);
    expect(conflict.body).toEqual({ success: false, message: '该微信账号已被绑定' });
    providers.wechat.set('654321', `wx_${uniqueName()}`);
    const bound = await binder.get(`/api/oauth/wechat/bind?code=654321&state=${await stateFor(binder)}`);
    expect(bound.body).toEqual({ success: true, message: '', data: null });
    expect(
      (await db().selectFrom('users').select('wechat_id').where('id', '=', id).executeTakeFirstOrThrow()).wechat_id,
    ).toBe(providers.wechat.get('654321'));

    const root = await server.rootClient();
    await setOptions(root, { WeChatAuthEnabled: false });
    const disabled = await other.get(`/api/oauth/wechat?code=123456&state=${await stateFor(other)}`);
    expect(disabled.body).toEqual({ success: false, message: '管理员未开启通过微信登录以及注册' });
    const disabledBind = await binder.get(`/api/oauth/wechat/bind?code=654321&state=${await stateFor(binder)}`);
    expect(disabledBind.body).toEqual({ success: false, message: '管理员未开启通过微信登录以及注册' });
    await setOptions(root, { WeChatAuthEnabled: true });
  });

  test('WeChat sign-in needs the session state: missing, wrong, foreign or reused states get 403', async () => {
    const wechatId = `wx_${uniqueName()}`;
    providers.wechat.set('wx-login-csrf', wechatId);
    const mismatch = { success: false, message: 'state is empty or not same' };
    const calls = () => providers.requests.filter((request) => request.path === '/api/wechat/user').length;
    const before = calls();

    const client = server.client();
    const noState = await client.get('/api/oauth/wechat?code=wx-login-csrf');
    expect(noState.status).toBe(403);
    expect(noState.body).toEqual(mismatch);
    const state = await stateFor(client);
    const wrong = await client.get(`/api/oauth/wechat?code=wx-login-csrf&state=${state}x`);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual(mismatch);
    const empty = await client.get('/api/oauth/wechat?code=wx-login-csrf&state=');
    expect(empty.status).toBe(403);
    // A state read by another session (say, the attacker's) is worthless in this one.
    const stranger = await server.client().get(`/api/oauth/wechat?code=wx-login-csrf&state=${state}`);
    expect(stranger.status).toBe(403);
    expect((await client.get('/api/user/self')).status).toBe(401);
    // None of the refused calls reached the WeChat server or created a user.
    expect(calls()).toBe(before);
    expect(await db().selectFrom('users').select('id').where('wechat_id', '=', wechatId).executeTakeFirst()).toBe(
      undefined,
    );

    const fresh = await stateFor(client);
    const signedIn = await client.get(`/api/oauth/wechat?code=wx-login-csrf&state=${fresh}`);
    expect(signedIn.body.success).toBe(true);
    expect(signedIn.body.data.username).toBe(`wechat_${signedIn.body.data.id}`);
    const replay = await client.get(`/api/oauth/wechat?code=wx-login-csrf&state=${fresh}`);
    expect(replay.status).toBe(403);
    expect(replay.body).toEqual(mismatch);

    // A refused code uses the state up too: the next try needs a new one.
    const retry = server.client();
    const once = await stateFor(retry);
    expect((await retry.get(`/api/oauth/wechat?code=unknown&state=${once}`)).body.message).toBe('验证码错误或已过期');
    expect((await retry.get(`/api/oauth/wechat?code=wx-login-csrf&state=${once}`)).status).toBe(403);
  });

  test("WeChat bind needs the session state: a cross-site link with an attacker's code binds nothing", async () => {
    const attackerWechat = `wx_${uniqueName()}`;
    providers.wechat.set('wx-attacker', attackerWechat);
    const { client: victim, id } = await signUp(server, uniqueName('wv'));
    const mismatch = { success: false, message: 'state is empty or not same' };
    const wechatIdOfVictim = async () =>
      (await db().selectFrom('users').select('wechat_id').where('id', '=', id).executeTakeFirstOrThrow()).wechat_id;

    const noState = await victim.get('/api/oauth/wechat/bind?code=wx-attacker');
    expect(noState.status).toBe(403);
    expect(noState.body).toEqual(mismatch);
    const state = await stateFor(victim);
    const wrong = await victim.get(`/api/oauth/wechat/bind?code=wx-attacker&state=${state}x`);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual(mismatch);
    // The attacker's own state does not work in the victim's session.
    const { client: attacker } = await signUp(server, uniqueName('wa'));
    const attackerState = await stateFor(attacker);
    const foreign = await victim.get(`/api/oauth/wechat/bind?code=wx-attacker&state=${attackerState}`);
    expect(foreign.status).toBe(403);
    expect(await wechatIdOfVictim()).toBe('');
    // The victim is still signed in as before.
    expect((await victim.get('/api/user/self')).body.data.id).toBe(id);

    const fresh = await stateFor(victim);
    const bound = await victim.get(`/api/oauth/wechat/bind?code=wx-attacker&state=${fresh}`);
    expect(bound.body).toEqual({ success: true, message: '', data: null });
    expect(await wechatIdOfVictim()).toBe(attackerWechat);
    const replay = await victim.get(`/api/oauth/wechat/bind?code=wx-attacker&state=${fresh}`);
    expect(replay.status).toBe(403);
    expect(replay.body).toEqual(mismatch);
  });

  test('a deleted user frees its GitHub id for a new account', async () => {
    const login = `del${uniqueName()}`;
    providers.github.set('gh-del', { login });
    const client = server.client();
    const first = await client.get(`/api/oauth/github?code=gh-del&state=${await stateFor(client)}`);
    expect((await client.delete('/api/user/self')).body.success).toBe(true);
    const next = server.client();
    const second = await next.get(`/api/oauth/github?code=gh-del&state=${await stateFor(next)}`);
    expect(second.body.success).toBe(true);
    expect(second.body.data.id).not.toBe(first.body.data.id);
  });

  test('parallel first GitHub sign-ins get distinct generated usernames (no max(id)+1)', async () => {
    const codes = Array.from({ length: 8 }, (_, index) => `par-${index}`);
    for (const code of codes) providers.github.set(code, { login: `par${uniqueName()}` });
    const answers = await Promise.all(
      codes.map(async (code) => {
        const client = server.client();
        return client.get(`/api/oauth/github?code=${code}&state=${await stateFor(client)}`);
      }),
    );
    const names = answers.map((answer) => answer.body.data?.username as string);
    expect(answers.every((answer) => answer.body.success)).toBe(true);
    expect(new Set(names).size).toBe(codes.length);
  });
});
