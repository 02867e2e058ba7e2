import { describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../../../test/account-helpers.js';
import { sharedEngines, twoNodes } from '../../../../test/two-nodes-kit.js';
import { saveCode } from '../../../domain/user/verification-code.store.js';

const engines = await sharedEngines();

describe.skipIf(engines.length === 0).each(engines)('two nodes sharing $label', (engine) => {
  const nodes = twoNodes(engine);

  test('a ban made on node A refuses the session and the access token on node B at once', async () => {
    const username = uniqueName('mn');
    const { client } = await signUp(nodes.a, username);
    const token = (await client.get('/api/user/token')).body.data as string;
    const sessionOnB = nodes.onNodeB(client);
    const tokenOnB = nodes.b.client(token);
    // Node B reads (and caches) the user first.
    expect((await sessionOnB.get('/api/user/self')).body.success).toBe(true);
    expect((await tokenOnB.get('/api/user/self')).body.success).toBe(true);

    const rootOnA = await nodes.a.rootClient();
    expect((await rootOnA.post('/api/user/manage', { username, action: 'disable' })).body.success).toBe(true);
    expect((await tokenOnB.get('/api/user/self')).body).toEqual({ success: false, message: '用户已被封禁' });
    expect((await sessionOnB.get('/api/user/self')).body).toEqual({ success: false, message: '用户已被封禁' });

    expect((await rootOnA.post('/api/user/manage', { username, action: 'enable' })).body.success).toBe(true);
    expect((await tokenOnB.get('/api/user/self')).body.success).toBe(true);
  });

  test('a demotion on node A takes admin rights away on node B at once', async () => {
    const username = uniqueName('mnadm');
    const { client } = await signUp(nodes.a, username);
    const rootOnA = await nodes.a.rootClient();
    await rootOnA.post('/api/user/manage', { username, action: 'promote' });
    // A role change ends the user's sessions (decision 0002): sign in again as an administrator.
    await client.login(username, 'password123');
    const sessionOnB = nodes.onNodeB(client);
    expect((await sessionOnB.get('/api/user/')).body.success).toBe(true);
    await rootOnA.post('/api/user/manage', { username, action: 'demote' });
    const refused = await sessionOnB.get('/api/user/');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ success: false, message: '无权进行此操作，未登录且未提供 access token' });
  });

  test('a reset code issued on node A is accepted once, on node B', async () => {
    const username = uniqueName('mnrst');
    const { id } = await signUp(nodes.a, username);
    const email = `${username}@example.com`;
    await nodes.a.context.database.db.updateTable('users').set({ email }).where('id', '=', id).execute();
    const token = 'a'.repeat(32);
    await saveCode(nodes.a.context, 'reset', email, token);
    const reset = await nodes.b.client().post('/api/user/reset', { email, token });
    expect(reset.body.success).toBe(true);
    await nodes.a.client().login(username, reset.body.data as string);
    expect((await nodes.a.client().post('/api/user/reset', { email, token })).body).toEqual({
      success: false,
      message: '重置链接非法或已过期',
    });
  });
});
