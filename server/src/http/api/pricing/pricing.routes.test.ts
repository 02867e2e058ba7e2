import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { priceCall } from '../../../domain/pricing/price-call.js';
import { resolvePrice } from '../../../domain/pricing/resolve-price.js';
import { ChannelType } from '../../../domain/channel/channel.constants.js';
import { textQuota } from '../../../../test/one-api-formulas.js';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser } from '../../../../test/test-users.js';
import { waitFor } from '../../../../test/wait-for.js';

const modelsDevFile = {
  anthropic: {
    models: {
      'claude-sonnet-4-5': {
        cost: {
          input: 3,
          output: 15,
          cache_read: 0.3,
          cache_write: 3.75,
          context_over_200k: { input: 6, output: 22.5 },
        },
      },
      'claude-new-7': { cost: { input: 2, output: 10 } },
    },
  },
  'some-reseller': { models: { 'claude-new-7': { cost: { input: 2.2, output: 11 } } } },
};

describe.each(await availableEngines())('model prices on $label', (engine) => {
  let server: TestServer;
  let other: TestServer;
  let fileDirectory: string;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    other = await startTestServer({ engine, shareDatabaseWith: server });
    fileDirectory = mkdtempSync(join(tmpdir(), 'modelgate-prices-'));
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
    rmSync(fileDirectory, { recursive: true, force: true });
  });

  test('admins only', async () => {
    expect((await server.client().get('/api/price/')).status).toBe(401);
    const common = await createTestUser(server);
    const refused = await common.client.put('/api/price/', { model: 'm', price: { input: 1 } });
    expect(refused.body.success).toBe(false);
    expect((await common.client.get('/api/price/')).body.success).toBe(false);
  });

  test('a fresh database prices from the catalogue, refuses unknown models, then takes the admin’s default', async () => {
    const root = await server.rootClient();
    const created = await root.post('/api/channel/', {
      name: 'openai',
      type: 1,
      key: 'k',
      models: 'gpt-4o,mystery-model',
    });
    expect(created.body.success).toBe(true);
    const listed = await root.get('/api/price/');
    expect(listed.body.success).toBe(true);
    const byModel = Object.fromEntries(listed.body.data.map((entry: { model: string }) => [entry.model, entry]));
    expect(byModel['gpt-4o']).toMatchObject({
      source: 'catalogue',
      channel_type: 1,
      price: { input: 2.5, output: 10 },
    });
    expect(byModel['mystery-model']).toMatchObject({ source: 'missing', price: null });

    expect(() => resolvePrice(server.context, 'mystery-model', ChannelType.OpenAI, 'default')).toThrow(
      /mystery-model has no price/,
    );
    const saved = await root.put('/api/option/', { key: 'DefaultModelPrice', value: '{"input":1,"output":2}' });
    expect(saved.body.success).toBe(true);
    const fallback = resolvePrice(server.context, 'mystery-model', ChannelType.OpenAI, 'default');
    expect(fallback).toMatchObject({ source: 'default', price: { kind: 'list', list: { input: 1, output: 2 } } });
    await root.put('/api/option/', { key: 'DefaultModelPrice', value: '{}' });
    expect(() => resolvePrice(server.context, 'mystery-model', ChannelType.OpenAI, 'default')).toThrow();
  });

  test('an admin’s price wins over the catalogue, per group too, and reaches the other node', async () => {
    const root = await server.rootClient();
    const price = { input: 2, cache_read: 0.2, output: 8, tiers: [{ above: 100_000, input: 4, output: 12 }] };
    const saved = await root.put('/api/price/', { model: 'gpt-4o', price, note: 'our contract' });
    expect(saved.body).toEqual({ success: true, message: '', data: null });
    await root.put('/api/price/', { model: 'gpt-4o', group: 'vip', price: { input: 1, output: 4 } });

    const everyone = resolvePrice(server.context, 'gpt-4o', ChannelType.OpenAI, 'default');
    expect(everyone).toMatchObject({ source: 'admin', groupPrice: false, reference: 'our contract' });
    const charged = priceCall({ input: 1000, output: 1000 }, everyone, 1, 500_000);
    expect(charged.quota).toBe(5000);
    const vip = resolvePrice(server.context, 'gpt-4o', ChannelType.OpenAI, 'vip');
    expect(vip).toMatchObject({ source: 'admin', groupPrice: true, price: { list: { input: 1, output: 4 } } });
    expect(priceCall({ input: 1000, output: 1000 }, vip, 0.5, 500_000).quota).toBe(2500);

    const listed = await root.get('/api/price/?model=gpt-4o');
    expect(listed.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ model: 'gpt-4o', group: '', source: 'admin', price, note: 'our contract' }),
        expect.objectContaining({ model: 'gpt-4o', group: 'vip', source: 'admin', price: { input: 1, output: 4 } }),
      ]),
    );

    // The other node reads the new revision with the options (the bus with Redis, the periodic reload without).
    if (!engine.redis) await other.context.options.reload(other.context.database.db);
    await waitFor('the other node prices gpt-4o as the admin set it', async () => {
      return resolvePrice(other.context, 'gpt-4o', ChannelType.OpenAI, 'default').source === 'admin';
    });

    expect((await root.delete('/api/price/?model=gpt-4o&group=vip')).body.success).toBe(true);
    expect(resolvePrice(server.context, 'gpt-4o', ChannelType.OpenAI, 'vip').groupPrice).toBe(false);
    const again = await root.delete('/api/price/?model=gpt-4o&group=vip');
    expect(again.body).toEqual({ success: false, message: '该模型没有管理员设置的价格' });
    expect((await root.delete('/api/price/?model=gpt-4o')).body.success).toBe(true);
    expect(resolvePrice(server.context, 'gpt-4o', ChannelType.OpenAI, 'default').source).toBe('catalogue');
  });

  test('bad prices are refused and nothing is saved', async () => {
    const root = await server.rootClient();
    for (const price of [{ input: -1 }, { input: 'x' }, { inputs: 1 }, { tiers: [{ above: 5 }, { above: 5 }] }]) {
      const refused = await root.put('/api/price/', { model: 'bad-model', price });
      expect(refused.body.success, JSON.stringify(price)).toBe(false);
    }
    expect((await root.get('/api/price/?model=bad-model')).body.data).toEqual([]);
  });

  test('ratios stored through one-api’s /api/option keep billing exactly as before', async () => {
    const root = await server.rootClient();
    const ratios = { 'gpt-4o': 2.5, 'qwen-turbo': 0.8572, 'old-model(1)': 3 };
    const saved = await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) });
    expect(saved.body.success).toBe(true);
    const options = await root.get('/api/option/');
    const stored = options.body.data.find((entry: { key: string }) => entry.key === 'ModelRatio');
    expect(JSON.parse(stored.value)).toEqual(ratios);

    const usage = { prompt_tokens: 1234, completion_tokens: 567, total_tokens: 1801 };
    for (const [model, type] of [
      ['gpt-4o', ChannelType.OpenAI],
      ['qwen-turbo', ChannelType.Ali],
      ['old-model', ChannelType.OpenAI],
    ] as const) {
      const resolved = resolvePrice(server.context, model, type, 'vip');
      expect(resolved.source, model).toBe('ratio');
      if (resolved.price.kind !== 'ratio') throw new Error('expected a ratio price');
      const { model_ratio: modelRatio, completion_ratio: completionRatio } = resolved.price.ratio;
      const quota = priceCall({ input: 1234, output: 567 }, resolved, 0.7, 500_000).quota;
      expect(quota, model).toBe(textQuota(usage, modelRatio * 0.7, completionRatio));
    }
    expect(resolvePrice(server.context, 'gpt-4o', ChannelType.OpenAI, 'default').price).toEqual({
      kind: 'ratio',
      ratio: { model_ratio: 2.5, completion_ratio: 4, web_searches_per_1000: 10 },
    });
    // A model the stored map does not name still takes the catalogue's price.
    expect(resolvePrice(server.context, 'gpt-4o-mini', ChannelType.OpenAI, 'default').source).toBe('catalogue');
    const listed = await root.get('/api/price/?model=old-model');
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        model: 'old-model',
        channel_type: 1,
        source: 'ratio',
        ratio: { model_ratio: 3, completion_ratio: 1 },
      }),
    ]);
    await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({}) });
  });

  test('a models.dev file: previewed as a diff, then applied; from a server path for root only', async () => {
    const root = await server.rootClient();
    const preview = await root.post('/api/price/import/preview', { data: modelsDevFile });
    expect(preview.body.success).toBe(true);
    expect(preview.body.data).toMatchObject({
      conflicts: [{ model: 'claude-new-7', prices: [{ provider: 'anthropic' }, { provider: 'some-reseller' }] }],
      skipped: [],
      applied: 0,
    });
    // The file prices Claude Sonnet 4.5 as the catalogue does, bar the 1-hour write it lacks: unchanged.
    expect(preview.body.data).toMatchObject({ changes: [], unchanged: 1 });
    expect((await root.get('/api/price/?model=claude-sonnet-4-5')).body.data).toEqual([]);

    const path = join(fileDirectory, 'api.json');
    writeFileSync(path, JSON.stringify(modelsDevFile));
    const admin = await createTestUser(server, { role: 10 });
    const refused = await admin.client.post('/api/price/import', { path });
    expect(refused.body).toEqual({ success: false, message: '只有超级管理员可以读取服务器上的文件' });
    const applied = await root.post('/api/price/import', { path, providers: ['anthropic'] });
    expect(applied.body.data).toMatchObject({ conflicts: [], applied: 1 });
    const added = resolvePrice(server.context, 'claude-new-7', ChannelType.Anthropic, 'default');
    expect(added).toMatchObject({
      source: 'admin',
      reference: expect.stringMatching(/^models\.dev anthropic \d{4}-\d\d-\d\d$/),
    });
    expect(resolvePrice(server.context, 'claude-sonnet-4-5', ChannelType.Anthropic, 'default').source).toBe(
      'catalogue',
    );

    const unchanged = await root.post('/api/price/import/preview', { data: modelsDevFile, providers: ['anthropic'] });
    expect(unchanged.body.data).toMatchObject({ changes: [], unchanged: 2 });
    const missing = await root.post('/api/price/import/preview', { path: join(fileDirectory, 'none.json') });
    expect(missing.body.success).toBe(false);
    const neither = await root.post('/api/price/import/preview', {});
    expect(neither.body.success).toBe(false);
  });
});
