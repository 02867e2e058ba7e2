import { signerFactory } from '@fastify/cookie';
import { describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../../../test/account-helpers.js';
import { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer } from '../../../../test/test-server.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';

const notSignedIn = { success: false, message: '无权进行此操作，未登录且未提供 access token' };

/** A second browser holding a copy of the client's cookies (a stolen or forgotten session). */
function copyOf(client: ApiClient): ApiClient {
  const copy = new ApiClient(client.baseUrl);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

async function expectSignedOut(client: ApiClient) {
  const response = await client.get('/api/user/self');
  expect(response.status).toBe(401);
  expect(response.body).toEqual(notSignedIn);
}

describe.each(await availableEngines())('session revocation on $label', (engine) => {
  const server = startedForSuite(() => startTestServer({ engine }));
  const root = startedForSuite(() => server.rootClient());

  test('a session cookie no longer works once its user signed out', async () => {
    const username = uniqueName('out');
    const { client } = await signUp(server, username);
    const other = new ApiClient(server.url);
    await other.login(username, 'password123');
    const stolen = copyOf(client);
    expect((await stolen.get('/api/user/self')).body.success).toBe(true);

    expect((await client.get('/api/user/logout')).body.success).toBe(true);
    await expectSignedOut(stolen);
    // Signing out ends this session alone (decision 0002): the other browser stays signed in.
    expect((await other.get('/api/user/self')).body.data).toMatchObject({ username });
    // A fresh sign-in works, and an old cookie replayed to the logout route does not end it.
    const fresh = new ApiClient(server.url);
    await fresh.login(username, 'password123');
    await stolen.get('/api/user/logout');
    expect((await fresh.get('/api/user/self')).body.success).toBe(true);
    expect((await other.get('/api/user/self')).body.success).toBe(true);
  });

  test('changing one\u2019s own password needs the current one, keeps this session and ends the others', async () => {
    const username = uniqueName('pwd');
    const { client } = await signUp(server, username);
    const stolen = copyOf(client);

    expect((await client.put('/api/user/self', { password: 'newpassword1' })).body).toEqual({
      success: false,
      message: '修改密码需要输入原密码',
    });
    expect(
      (await client.put('/api/user/self', { password: 'newpassword1', original_password: 'wrongpass1' })).body,
    ).toEqual({ success: false, message: '原密码错误' });
    const english = new ApiClient(server.url, undefined, 'en');
    for (const [name, value] of client.cookies) english.cookies.set(name, value);
    expect((await english.put('/api/user/self', { password: 'newpassword1' })).body).toEqual({
      success: false,
      message: 'Enter your current password to change it',
    });
    // The refusals changed nothing.
    await new ApiClient(server.url).login(username, 'password123');
    expect((await stolen.get('/api/user/self')).body.success).toBe(true);

    // one-api's console sends an empty password (and null extras) when the password is not being changed.
    expect(
      (await client.put('/api/user/self', { display_name: 'Renamed', password: '', original_password: null })).body,
    ).toEqual({ success: true, message: '', data: null });
    expect((await stolen.get('/api/user/self')).body.success).toBe(true);

    expect(
      (await client.put('/api/user/self', { password: 'newpassword1', original_password: 'password123' })).body,
    ).toEqual({ success: true, message: '', data: null });
    await expectSignedOut(stolen);
    expect((await client.get('/api/user/self')).body.data).toMatchObject({ username, display_name: 'Renamed' });
    expect((await client.put('/api/user/self', { display_name: 'Again' })).body.success).toBe(true);
    await new ApiClient(server.url).login(username, 'newpassword1');
  });

  test('an administrator setting a password, banning or changing a role ends the user\u2019s sessions', async () => {
    const username = uniqueName('adm');
    const { client, id } = await signUp(server, username);

    expect((await root.put('/api/user/', { id, password: 'adminset123' })).body.success).toBe(true);
    await expectSignedOut(client);
    await client.login(username, 'adminset123');

    expect((await root.post('/api/user/manage', { username, action: 'promote' })).body.data.role).toBe(10);
    await expectSignedOut(client);
    await client.login(username, 'adminset123');
    expect((await client.get('/api/user/')).body.success).toBe(true);
    expect((await root.put('/api/user/', { id, role: 1 })).body.success).toBe(true);
    await expectSignedOut(client);
    await client.login(username, 'adminset123');

    const beforeBan = copyOf(client);
    expect((await root.post('/api/user/manage', { username, action: 'disable' })).body.data.status).toBe(2);
    expect((await client.get('/api/user/self')).body).toEqual({ success: false, message: '用户已被封禁' });
    expect((await root.post('/api/user/manage', { username, action: 'enable' })).body.data.status).toBe(1);
    // Lifting the ban does not bring the old session back.
    await expectSignedOut(beforeBan);
    await client.login(username, 'adminset123');

    // Edits that change none of these leave the sessions alone.
    expect((await root.put('/api/user/', { id, display_name: 'Kept', quota: 5 })).body.success).toBe(true);
    expect((await client.get('/api/user/self')).body.data).toMatchObject({ display_name: 'Kept', quota: 5 });
    expect((await root.put('/api/user/', { id, status: 2 })).body.success).toBe(true);
    expect((await root.put('/api/user/', { id, status: 1 })).body.success).toBe(true);
    await expectSignedOut(client);
  });

  test('root changing its own password through the admin form confirms the current one', async () => {
    const rootId = (await root.get('/api/user/self')).body.data.id as number;
    const otherRootSession = await server.rootClient();
    expect((await root.put('/api/user/', { id: rootId, password: 'rootpass999' })).body).toEqual({
      success: false,
      message: '修改密码需要输入原密码',
    });
    expect(
      (await root.put('/api/user/', { id: rootId, password: 'rootpass999', original_password: '123456' })).body.success,
    ).toBe(true);
    // This session goes on; the other one ended.
    expect((await root.get('/api/user/self')).body.success).toBe(true);
    await expectSignedOut(otherRootSession);
    await new ApiClient(server.url).login('root', 'rootpass999');
  });

  test('a cookie without a session row (from before session rows, or forged with the secret) is refused', async () => {
    const username = uniqueName('old');
    const { client, id } = await signUp(server, username);
    const signer = signerFactory(server.context.config.SESSION_SECRET);
    const cookieOf = (data: object) =>
      encodeURIComponent(signer.sign(Buffer.from(JSON.stringify(data)).toString('base64url')));
    const legacy = new ApiClient(server.url);
    legacy.cookies.set('session', cookieOf({ userId: id }));
    await expectSignedOut(legacy);
    const invented = new ApiClient(server.url);
    invented.cookies.set('session', cookieOf({ userId: id, generation: 0, sid: 'not-a-session-id' }));
    await expectSignedOut(invented);
    expect((await client.get('/api/user/self')).body.data).toMatchObject({ id });
  });
});
