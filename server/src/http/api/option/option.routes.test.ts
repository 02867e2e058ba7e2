import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

describe.each(await availableEngines())('options and status on $label', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ engine });
  });
  afterAll(async () => server?.close());

  test('status is public and carries the system name and quota unit', async () => {
    const response = await server.client().get('/api/status');
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toMatchObject({
      system_name: 'ModelGate',
      quota_per_unit: 500000,
      display_in_currency: true,
    });
    expect(response.headers.get('x-oneapi-request-id')).toMatch(/^\d{25}$/);
  });

  test('options are root-only and never include secrets', async () => {
    const anonymous = await server.client().get('/api/option/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ success: false, message: '无权进行此操作，未登录且未提供 access token' });

    const root = await server.rootClient();
    await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-password' });
    await root.put('/api/option/', { key: 'TurnstileSecretKey', value: 'turnstile-secret' });
    const list = await root.get('/api/option/');
    expect(list.body.success).toBe(true);
    const keys = list.body.data.map((entry: { key: string }) => entry.key);
    expect(keys).toContain('SystemName');
    expect(keys).not.toContain('SMTPToken');
    expect(keys).not.toContain('TurnstileSecretKey');
    expect(JSON.stringify(list.body.data)).not.toContain('turnstile-secret');
  });

  test('a changed option takes effect at once and survives a reload from the database', async () => {
    const root = await server.rootClient();
    const saved = await root.put('/api/option/', { key: 'SystemName', value: 'Gate 测试' });
    expect(saved.body).toMatchObject({ success: true });
    expect((await server.client().get('/api/status')).body.data.system_name).toBe('Gate 测试');
    server.context.options.apply('SystemName', 'stale');
    await server.context.options.reload(server.context.database.db);
    expect(server.context.options.string('SystemName')).toBe('Gate 测试');
  });

  test('bad option values are refused and nothing is saved', async () => {
    const root = await server.rootClient();
    const badJson = await root.put('/api/option/', { key: 'ModelRatio', value: '{not json' });
    expect(badJson.body).toEqual({ success: false, message: '模型倍率不是合法的 JSON 字符串' });
    const unknown = await root.put('/api/option/', { key: 'NoSuchOption', value: '1' });
    expect(unknown.body.success).toBe(false);
    const negative = await root.put('/api/option/', { key: 'RetryTimes', value: '-1' });
    expect(negative.body.success).toBe(false);
    const notBoolean = await root.put('/api/option/', { key: 'RegisterEnabled', value: 'yes' });
    expect(notBoolean.body.success).toBe(false);
    const turnstile = await root.put('/api/option/', { key: 'TurnstileCheckEnabled', value: 'true' });
    expect(turnstile.body.message).toContain('Turnstile');
    const malformed = await root.request('PUT', '/api/option/', '{"key":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.success).toBe(false);
    const rows = await server.context.database.db.selectFrom('options').selectAll().execute();
    expect(rows.map((row) => row.key)).not.toContain('NoSuchOption');
    expect(server.context.options.json<Record<string, number>>('ModelRatio')['gpt-4']).toBe(15);
  });

  test('a cookie-authenticated write without the XSRF header is refused', async () => {
    const root = await server.rootClient();
    const refused = await root.put('/api/option/', { key: 'Notice', value: 'x' }, { 'x-xsrf-token': 'forged' });
    expect(refused.status).toBe(403);
    expect(refused.body.success).toBe(false);
    expect(server.context.options.string('Notice')).toBe('');
  });
  test('notice, about and home page content are public and follow their options', async () => {
    const root = await server.rootClient();
    await root.put('/api/option/', { key: 'Notice', value: '**维护通知**' });
    await root.put('/api/option/', { key: 'About', value: '<p>about us</p>' });
    await root.put('/api/option/', { key: 'HomePageContent', value: 'https://example.test/home' });
    const visitor = server.client();
    expect((await visitor.get('/api/notice')).body).toEqual({ success: true, message: '', data: '**维护通知**' });
    expect((await visitor.get('/api/about')).body.data).toBe('<p>about us</p>');
    expect((await visitor.get('/api/home_page_content')).body.data).toBe('https://example.test/home');
  });

  test('the group list is for admins and follows GroupRatio', async () => {
    const root = await server.rootClient();
    await root.put('/api/option/', {
      key: 'GroupRatio',
      value: JSON.stringify({ default: 1, vip: 0.8, partner: 0.5 }),
    });
    expect((await root.get('/api/group/')).body).toEqual({
      success: true,
      message: '',
      data: ['default', 'partner', 'vip'],
    });
    const anonymous = await server.client().get('/api/group/');
    expect(anonymous.status).toBe(401);
    const badRatio = await root.put('/api/option/', { key: 'GroupRatio', value: JSON.stringify({ default: -1 }) });
    expect(badRatio.body.success).toBe(false);
    expect((await root.get('/api/group/')).body.data).toEqual(['default', 'partner', 'vip']);
  });
});
