import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../../../test/account-helpers.js';
import { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { saveCode } from '../../../domain/user/verification-code.store.js';

// Two nodes need a database and a cache both can reach: PostgreSQL with Redis.
const sharedEngines = (await availableEngines()).filter((engine) => engine.name === 'postgres' && engine.redis);

describe.skipIf(sharedEngines.length === 0).each(sharedEngines)('two nodes sharing $label', (engine) => {
  let nodeA: TestServer;
  let nodeB: TestServer;
  beforeAll(async () => {
    nodeA = await startTestServer({ engine });
    nodeB = await startTestServer({ engine, shareDatabaseWith: nodeA });
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  /** The same signed-in browser, pointed at node B. */
  const onNodeB = (client: ApiClient) => {
    const moved = new ApiClient(nodeB.url, client.accessToken);
    for (const [name, value] of client.cookies) moved.cookies.set(name, value);
    return moved;
  };

  test('a ban made on node A refuses the session and the access token on node B at once', async () => {
    const username = uniqueName('mn');
    const { client } = await signUp(nodeA, username);
    const token = (await client.get('/api/user/token')).body.data as string;
    const sessionOnB = onNodeB(client);
    const tokenOnB = nodeB.client(token);
    // Node B reads (and caches) the user first.
    expect((await sessionOnB.get('/api/user/self')).body.success).toBe(true);
    expect((await tokenOnB.get('/api/user/self')).body.success).toBe(true);

    const rootOnA = await nodeA.rootClient();
    expect((await rootOnA.post('/api/user/manage', { username, action: 'disable' })).body.success).toBe(true);
    expect((await tokenOnB.get('/api/user/self')).body).toEqual({ success: false, message: '用户已被封禁' });
    expect((await sessionOnB.get('/api/user/self')).body).toEqual({ success: false, message: '用户已被封禁' });

    expect((await rootOnA.post('/api/user/manage', { username, action: 'enable' })).body.success).toBe(true);
    expect((await tokenOnB.get('/api/user/self')).body.success).toBe(true);
  });

  test('a demotion on node A takes admin rights away on node B at once', async () => {
    const username = uniqueName('mnadm');
    const { client } = await signUp(nodeA, username);
    const rootOnA = await nodeA.rootClient();
    await rootOnA.post('/api/user/manage', { username, action: 'promote' });
    // A role change ends the user's sessions (decision 0002): sign in again as an administrator.
    await client.login(username, 'password123');
    const sessionOnB = onNodeB(client);
    expect((await sessionOnB.get('/api/user/')).body.success).toBe(true);
    await rootOnA.post('/api/user/manage', { username, action: 'demote' });
    const refused = await sessionOnB.get('/api/user/');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ success: false, message: '无权进行此操作，未登录且未提供 access token' });
  });

  test('a reset code issued on node A is accepted once, on node B', async () => {
    const username = uniqueName('mnrst');
    const { id } = await signUp(nodeA, username);
    const email = `${username}@example.com`;
    await nodeA.context.database.db.updateTable('users').set({ email }).where('id', '=', id).execute();
    const token = 'a'.repeat(32);
    await saveCode(nodeA.context, 'reset', email, token);
    const reset = await nodeB.client().post('/api/user/reset', { email, token });
    expect(reset.body.success).toBe(true);
    await nodeA.client().login(username, reset.body.data as string);
    expect((await nodeA.client().post('/api/user/reset', { email, token })).body).toEqual({
      success: false,
      message: '重置链接非法或已过期',
    });
  });
});
