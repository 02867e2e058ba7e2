import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { createChannel, createUser } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import bcrypt from 'bcryptjs';
import { ApiClient } from '../../../../test/api-client.js';

describe.each(await availableEngines())('model catalogue routes on $label', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    await createChannel(server, {
      base_url: 'http://127.0.0.1:9',
      models: 'gpt-4o-mini,zeta-model',
      group: 'default,vip',
    });
    await createChannel(server, { base_url: 'http://127.0.0.1:9', models: 'vip-only', group: 'vip' });
    await createChannel(server, { base_url: 'http://127.0.0.1:9', models: 'disabled-model', status: 2 });
    // A group without a ratio: no user is put in it through the console, so visitors are not told of it.
    await createChannel(server, { base_url: 'http://127.0.0.1:9', models: 'internal-model', group: 'internal' });
  });
  afterAll(async () => server?.close());

  test('GET /api/models maps every channel type to its built-in models', async () => {
    const anonymous = await server.client().get('/api/models');
    expect(anonymous.status).toBe(401);
    const root = await server.rootClient();
    const response = await root.get('/api/models');
    expect(response.body.success).toBe(true);
    const data = response.body.data as Record<string, string[] | null>;
    expect(Object.keys(data)).toHaveLength(51);
    expect(data['1']).toContain('gpt-4o-mini');
    expect(data['3']).toContain('gpt-4o-mini');
    expect(data['36']).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    expect(data['14']).toContain('claude-3-5-sonnet-20241022');
    expect(data['43']).toBeNull();
  });

  test('GET /api/user/available_models lists the enabled models of the caller group, ascending', async () => {
    const root = await server.rootClient();
    expect((await root.get('/api/user/available_models')).body.data).toEqual(['gpt-4o-mini', 'zeta-model']);
    const vipId = await createUser(server, { username: 'vipuser', quota: 0, group: 'vip' });
    await server.context.database.db
      .updateTable('users')
      .set({ password: bcrypt.hashSync('password123', 4) })
      .where('id', '=', vipId)
      .execute();
    const vip = new ApiClient(server.url);
    await vip.login('vipuser', 'password123');
    expect((await vip.get('/api/user/available_models')).body.data).toEqual(['gpt-4o-mini', 'vip-only', 'zeta-model']);
    // an ordinary user may not read the admin catalogue
    const refused = await vip.get('/api/channel/models');
    expect(refused.body).toMatchObject({ success: false, message: '无权进行此操作，权限不足' });
  });

  test('GET /api/channel/models is admin-only and has no envelope', async () => {
    const root = await server.rootClient();
    const response = await root.get('/api/channel/models');
    expect(response.body.object).toBe('list');
    const ids = response.body.data.map((model: { id: string }) => model.id);
    expect(ids).toContain('gpt-4o-mini');
    expect(ids).toContain('deepseek-chat');
    expect(response.body.data[0]).toMatchObject({ object: 'model', owned_by: 'openai' });
    const userId = await createUser(server, { username: 'plainuser', quota: 0 });
    expect(userId).toBeGreaterThan(0);
    expect((await server.client().get('/api/channel/models')).status).toBe(401);
  });

  test('GET /api/served_models tells signed-out visitors the enabled models of the ratio groups, ascending', async () => {
    const anonymous = await server.client().get('/api/served_models');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({
      success: true,
      message: '',
      data: ['gpt-4o-mini', 'vip-only', 'zeta-model'],
    });
  });
});
