import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { abilitiesOf, channelRow, createChannels, signInWithRole } from '../../../../test/channel-test-helpers.js';
import { availableEngines } from '../../../../test/engines.js';
import type { ApiClient } from '../../../../test/api-client.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';

const ability = (group: string, model: string, enabled = true, priority = 0) => ({ group, model, enabled, priority });

describe.each(await availableEngines())('channel management on $label', (engine) => {
  let server: TestServer;
  let root: ApiClient;
  const announced: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({ engine });
    root = await server.rootClient();
    server.context.bus.subscribe(({ topic, key }) => {
      if (topic === 'channels') announced.push(key);
    });
  });
  afterAll(async () => server?.close());
  beforeEach(async () => {
    announced.length = 0;
    await server.context.database.db.deleteFrom('abilities').execute();
    await server.context.database.db.deleteFrom('channels').execute();
  });

  const countChannels = async () =>
    Number(
      (
        await server.context.database.db
          .selectFrom('channels')
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  test('creating a channel cleans models and groups, stores the key and derives its abilities', async () => {
    const [id] = await createChannels(server, root, {
      name: 'primary',
      type: 1,
      key: 'sk-primary-secret',
      models: ' gpt-4o , gpt-4o-mini,gpt-4o,, ',
      group: 'default, vip ,default',
      base_url: 'https://mirror.example.com/',
      priority: 5,
      weight: 2,
      model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
      config: '{"region":"us"}',
    });
    const stored = await channelRow(server, id!);
    expect(stored).toMatchObject({
      key: 'sk-primary-secret',
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default,vip',
      base_url: 'https://mirror.example.com',
    });
    expect(Number(stored!.status)).toBe(1);
    expect(Number(stored!.created_time)).toBeGreaterThan(0);
    expect(await abilitiesOf(server, id!)).toEqual([
      ability('default', 'gpt-4o', true, 5),
      ability('default', 'gpt-4o-mini', true, 5),
      ability('vip', 'gpt-4o', true, 5),
      ability('vip', 'gpt-4o-mini', true, 5),
    ]);
    expect(announced).toEqual([String(id)]);

    const read = await root.get(`/api/channel/${id}`);
    expect(read.body.success).toBe(true);
    expect(read.body.data).toMatchObject({
      id,
      name: 'primary',
      type: 1,
      key: '',
      status: 1,
      weight: 2,
      priority: 5,
      group: 'default,vip',
    });
    expect(Object.keys(read.body.data).sort()).toEqual(
      [
        'id',
        'type',
        'key',
        'status',
        'name',
        'weight',
        'created_time',
        'test_time',
        'response_time',
        'base_url',
        'other',
        'balance',
        'balance_updated_time',
        'models',
        'group',
        'used_quota',
        'model_mapping',
        'priority',
        'config',
        'system_prompt',
      ].sort(),
    );
  });

  test('a batch creates one channel per non-empty key line, in one go', async () => {
    const ids = await createChannels(server, root, {
      name: 'batch',
      type: 1,
      key: 'key-one\n\nkey-two\r\n  key-three  \n',
      models: 'gpt-4o',
    });
    expect(ids).toHaveLength(3);
    const keys = await server.context.database.db.selectFrom('channels').select('key').orderBy('id').execute();
    expect(keys.map((row) => row.key)).toEqual(['key-one', 'key-two', 'key-three']);
    for (const id of ids) expect(await abilitiesOf(server, id)).toEqual([ability('default', 'gpt-4o')]);
    expect(announced.sort()).toEqual(ids.map(String).sort());
  });

  test('a Proxy channel (type 43) needs no models and gets no abilities; other types do need models', async () => {
    const [proxy] = await createChannels(server, root, {
      name: 'proxy',
      type: 43,
      key: 'raw-auth',
      base_url: 'http://127.0.0.1:9',
    });
    expect(await abilitiesOf(server, proxy!)).toEqual([]);
    const refused = await root.post('/api/channel/', { name: 'no-models', type: 1, key: 'k', models: ' , ' });
    expect(refused.body).toEqual({ success: false, message: '请至少选择一个模型' });
  });

  test('the key never leaves: list, search, read and both kinds of update answer it blank', async () => {
    const [id] = await createChannels(server, root, {
      name: 'secretive',
      type: 1,
      key: 'sk-never-shown',
      models: 'gpt-4o',
    });
    const answers = [
      await root.get('/api/channel/?p=0'),
      await root.get('/api/channel/search?keyword=secret'),
      await root.get(`/api/channel/${id}`),
      await root.put('/api/channel/', { id, name: 'secretive', type: 1, key: '', models: 'gpt-4o' }),
      await root.put('/api/channel/', { id, status: 2 }),
    ];
    for (const answer of answers) {
      expect(answer.body.success).toBe(true);
      expect(answer.text).not.toContain('sk-never-shown');
    }
    expect(answers[0]!.body.data[0].key).toBe('');
    expect(answers[3]!.body.data.key).toBe('');
  });

  test('lists page by 10, newest first, with optional type and status filters', async () => {
    await createChannels(server, root, {
      name: 'paged',
      type: 1,
      key: Array.from({ length: 12 }, (_, index) => `k${index}`).join('\n'),
      models: 'm',
    });
    const [deepseek] = await createChannels(server, root, {
      name: 'deep',
      type: 36,
      key: 'k',
      models: 'deepseek-chat',
      status: 2,
    });
    const first = await root.get('/api/channel/?p=0');
    const second = await root.get('/api/channel/?p=1');
    expect(first.body.data).toHaveLength(10);
    expect(second.body.data).toHaveLength(3);
    const ids = [...first.body.data, ...second.body.data].map((channel: { id: number }) => channel.id);
    expect(ids).toEqual([...ids].sort((left, right) => right - left));
    expect((await root.get('/api/channel/?p=-3')).body.data).toHaveLength(10);
    expect((await root.get('/api/channel/?type=36')).body.data.map((channel: { id: number }) => channel.id)).toEqual([
      deepseek,
    ]);
    expect((await root.get('/api/channel/?status=2')).body.data.map((channel: { id: number }) => channel.id)).toEqual([
      deepseek,
    ]);
    expect((await root.get('/api/channel/?p=abc')).body.success).toBe(false);
  });

  test('search matches the id or a name prefix, with wildcards and SQL taken literally', async () => {
    const [alpha] = await createChannels(server, root, { name: 'alpha-one', type: 1, key: 'k', models: 'm' });
    await createChannels(server, root, { name: 'beta', type: 1, key: 'k', models: 'm' });
    const [percent] = await createChannels(server, root, { name: '%literal_', type: 1, key: 'k', models: 'm' });
    const names = async (keyword: string) =>
      (
        (await root.get(`/api/channel/search?keyword=${encodeURIComponent(keyword)}`)).body.data as { name: string }[]
      ).map((channel) => channel.name);
    expect(await names('alp')).toEqual(['alpha-one']);
    expect(await names(String(alpha))).toEqual(['alpha-one']);
    expect(await names('%')).toEqual(['%literal_']);
    expect(await names('_')).toEqual([]);
    expect(await names("' or 1=1; drop table channels; --")).toEqual([]);
    expect(await countChannels()).toBe(3);
    expect(await names(String(percent))).toEqual(['%literal_']);
    expect((await root.get(`/api/channel/search?keyword=${'x'.repeat(300)}`)).body.success).toBe(false);
  });

  test('a full update keeps an empty key, rewrites the fields and rebuilds the abilities in step', async () => {
    const [id] = await createChannels(server, root, {
      name: 'editable',
      type: 1,
      key: 'sk-old',
      models: 'gpt-4o,gpt-4',
      group: 'default,vip',
    });
    announced.length = 0;
    const loaded = (await root.get(`/api/channel/${id}`)).body.data;
    // The console sends back the whole loaded object, counters included; they are ignored.
    const updated = await root.put('/api/channel/', {
      ...loaded,
      name: 'edited',
      models: 'gpt-4o-mini',
      group: 'svip',
      priority: -2,
      used_quota: 999,
      balance: 42,
    });
    expect(updated.body).toMatchObject({
      success: true,
      data: { id, name: 'edited', models: 'gpt-4o-mini', group: 'svip', priority: -2, key: '' },
    });
    const stored = await channelRow(server, id!);
    expect(stored).toMatchObject({ key: 'sk-old', name: 'edited' });
    expect(Number(stored!.used_quota)).toBe(0);
    expect(Number(stored!.balance)).toBe(0);
    expect(await abilitiesOf(server, id!)).toEqual([ability('svip', 'gpt-4o-mini', true, -2)]);
    expect(announced).toEqual([String(id)]);

    await root.put('/api/channel/', { id, key: 'sk-new', name: 'edited', type: 1 });
    expect((await channelRow(server, id!))!.key).toBe('sk-new');
    // Scripts written for one-api send null for the nullable columns: it means empty.
    const nulls = await root.put('/api/channel/', {
      id,
      name: 'edited',
      type: 1,
      base_url: null,
      model_mapping: null,
      priority: null,
    });
    expect(nulls.body).toMatchObject({ success: true, data: { base_url: '', model_mapping: '', priority: 0 } });
    const missing = await root.put('/api/channel/', { id: 999_999, name: 'ghost', type: 1, models: 'm' });
    expect(missing.body).toEqual({ success: false, message: '渠道不存在' });
  });

  test('quick switches change status, priority or weight, and the abilities follow', async () => {
    const [id] = await createChannels(server, root, { name: 'switch', type: 1, key: 'k', models: 'a,b' });
    const disabled = await root.put('/api/channel/', { id, status: 2 });
    expect(disabled.body).toMatchObject({ success: true, data: { id, status: 2 } });
    expect(await abilitiesOf(server, id!)).toEqual([ability('default', 'a', false), ability('default', 'b', false)]);
    await root.put('/api/channel/', { id, status: 1 });
    await root.put('/api/channel/', { id, priority: 9 });
    expect(await abilitiesOf(server, id!)).toEqual([
      ability('default', 'a', true, 9),
      ability('default', 'b', true, 9),
    ]);
    const weighted = await root.put('/api/channel/', { id, weight: 3 });
    expect(weighted.body.data.weight).toBe(3);
    expect(announced.filter((key) => key === String(id))).toHaveLength(5);
    for (const bad of [
      { id, status: 0 },
      { id, status: 3 },
      { id, weight: -1 },
      { id, priority: 1.5 },
      { id },
      { id: 'x', status: 1 },
    ]) {
      const refused = await root.put('/api/channel/', bad);
      expect(refused.body.success, JSON.stringify(bad)).toBe(false);
    }
    const stored = await channelRow(server, id!);
    expect([Number(stored!.status), Number(stored!.priority), Number(stored!.weight)]).toEqual([1, 9, 3]);
  });

  test('deleting removes the channel and its abilities; deleting disabled ones counts them', async () => {
    const [keep, manual, automatic, gone] = [
      ...(await createChannels(server, root, { name: 'keep', type: 1, key: 'k', models: 'm' })),
      ...(await createChannels(server, root, { name: 'manual', type: 1, key: 'k', models: 'm', status: 2 })),
      ...(await createChannels(server, root, { name: 'auto', type: 1, key: 'k', models: 'm', status: 3 })),
      ...(await createChannels(server, root, { name: 'gone', type: 1, key: 'k', models: 'm' })),
    ];
    expect((await root.delete(`/api/channel/${gone}/`)).body).toMatchObject({ success: true });
    expect(await channelRow(server, gone!)).toBeUndefined();
    expect(await abilitiesOf(server, gone!)).toEqual([]);
    expect((await root.delete('/api/channel/123456')).body.success).toBe(true);

    const purged = await root.delete('/api/channel/disabled');
    expect(purged.body).toEqual({ success: true, message: '', data: 2 });
    for (const id of [manual, automatic]) {
      expect(await channelRow(server, id!)).toBeUndefined();
      expect(await abilitiesOf(server, id!)).toEqual([]);
    }
    expect(await abilitiesOf(server, keep!)).toEqual([ability('default', 'm')]);
    expect(announced).toEqual(expect.arrayContaining([String(gone), String(manual), String(automatic)]));
  });

  test('only admins may manage channels', async () => {
    const [id] = await createChannels(server, root, { name: 'guarded', type: 1, key: 'k', models: 'm' });
    const common = await signInWithRole(server, 1);
    const denied = { success: false, message: '无权进行此操作，权限不足' };
    expect((await common.get('/api/channel/')).body).toEqual(denied);
    expect((await common.get(`/api/channel/${id}`)).body).toEqual(denied);
    expect((await common.get('/api/channel/search?keyword=g')).body).toEqual(denied);
    expect((await common.post('/api/channel/', { name: 'x', type: 1, key: 'k', models: 'm' })).body).toEqual(denied);
    expect((await common.put('/api/channel/', { id, status: 2 })).body).toEqual(denied);
    expect((await common.delete(`/api/channel/${id}`)).body).toEqual(denied);
    expect((await common.delete('/api/channel/disabled')).body).toEqual(denied);
    expect((await server.client().get('/api/channel/')).status).toBe(401);
    expect(await countChannels()).toBe(1);

    const admin = await signInWithRole(server, 10);
    expect((await admin.get('/api/channel/')).body.data).toHaveLength(1);
    expect((await admin.put('/api/channel/', { id, priority: 4 })).body.success).toBe(true);
  });

  test('bad input is refused with a clear message and changes nothing', async () => {
    const [id] = await createChannels(server, root, { name: 'stable', type: 1, key: 'sk-stable', models: 'm' });
    const before = await channelRow(server, id!);
    const valid = { name: 'new', type: 1, key: 'k', models: 'm' };
    const badBodies: [Record<string, unknown> | unknown[], string][] = [
      [{ ...valid, type: 999 }, 'unknown channel type'],
      [{ ...valid, type: 0 }, 'unknown channel type'],
      [{ ...valid, type: '1' }, 'type'],
      [{ ...valid, model_mapping: '{not json' }, 'model_mapping'],
      [{ ...valid, model_mapping: '["a"]' }, 'model_mapping'],
      [{ ...valid, model_mapping: '{"a":1}' }, 'model_mapping'],
      [{ ...valid, weight: -1 }, 'weight'],
      [{ ...valid, priority: 2.5 }, 'priority'],
      [{ ...valid, name: '' }, 'name'],
      [{ ...valid, name: 'n'.repeat(300) }, 'name'],
      [{ ...valid, key: '' }, '请填写渠道密钥'],
      [{ ...valid, key: ' \n \n' }, '请填写渠道密钥'],
      [{ ...valid, key: 'k'.repeat(20_000) }, '渠道密钥'],
      [{ ...valid, group: 'g'.repeat(40) }, 'group'],
      [{ ...valid, models: `${'m'.repeat(200)}` }, 'model'],
      [{ ...valid, base_url: 'not a url' }, 'base_url'],
      [{ ...valid, base_url: 'ftp://host' }, 'base_url'],
      [{ ...valid, type: 8, base_url: '' }, 'Base URL'],
      [{ ...valid, config: '[1]' }, 'config'],
      [{ ...valid, system_prompt: 's'.repeat(20_000) }, 'system_prompt'],
      [{ ...valid, status: 7 }, 'status'],
      [{ type: 1, key: 'k', models: 'm' }, 'name'],
      [[valid], ''],
    ];
    for (const [body, hint] of badBodies) {
      const response = await root.post('/api/channel/', body);
      expect(response.body.success, JSON.stringify(body).slice(0, 80)).toBe(false);
      expect(response.body.message).toContain(hint);
    }
    const malformed = await root.request('POST', '/api/channel/', '{"name":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.success).toBe(false);

    const badUpdates = [
      { id, name: 'x', type: 999 },
      { id, name: 'x', model_mapping: 'nope' },
      { id, name: 'x', models: '' },
      { id, name: 'x', weight: -5 },
      { id: -1, name: 'x' },
      { id: 'abc', name: 'x' },
    ];
    for (const body of badUpdates)
      expect((await root.put('/api/channel/', body)).body.success, JSON.stringify(body)).toBe(false);
    for (const path of ['/api/channel/abc', '/api/channel/1e3', '/api/channel/-1', '/api/channel/0x10']) {
      expect((await root.get(path)).body.success, path).toBe(false);
      expect((await root.delete(path)).body.success, path).toBe(false);
    }
    expect(await countChannels()).toBe(1);
    expect(await channelRow(server, id!)).toEqual(before);
    expect(await abilitiesOf(server, id!)).toEqual([ability('default', 'm')]);
  });
});
