import type { ModelPricing, PricingList } from '@modelgate/wire';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { MockOpenAIUpstream, mockDefaults } from '../../../../test/mock-openai-upstream.js';
import { createChannel, createToken, setOption, settled } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../../test/test-users.js';
import { LogType } from '../../../domain/log/log.constants.js';

const { prompt_tokens: promptTokens, completion_tokens: completionTokens } = mockDefaults.usage;

/** What /api/pricing says a call of the mock's usage costs: the token prices, rounded up once (decision 0026). */
const quoteOf = (pricing: ModelPricing) =>
  Math.ceil(
    (promptTokens * (pricing.quota_per_1m.input ?? 0) + completionTokens * (pricing.quota_per_1m.output ?? 0)) /
      1_000_000,
  );

describe.each(await availableEngines())('GET /api/pricing on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let vip: TestUser;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start();
    await setOption(server, 'GroupRatio', JSON.stringify({ default: 1, vip: 1.5 }));
    await setOption(server, 'ModelRatio', JSON.stringify({ 'old-model': 3 }));
    await createChannel(server, { base_url: upstream.url, models: 'gpt-4o,mystery-model,old-model' });
    await createChannel(server, {
      base_url: upstream.url,
      group: 'vip',
      models: 'gpt-4o,house-model,old-model',
      model_mapping: JSON.stringify({ 'house-model': 'gpt-4o-mini' }),
    });
    vip = await createTestUser(server, { quota: 50_000_000 });
    await server.context.database.db.updateTable('users').set({ group: 'vip' }).where('id', '=', vip.id).execute();
    apiKey = `sk-${(await createToken(server, vip.id)).key}`;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const pricingOf = async (client = server.client()): Promise<PricingList> => {
    const answer = await client.get('/api/pricing');
    expect(answer.body.success).toBe(true);
    return answer.body.data as PricingList;
  };
  const byModel = (list: PricingList) => Object.fromEntries(list.models.map((entry) => [entry.model, entry]));

  /** Calls the model as the vip user and returns the charge of its consume log (the newest). */
  const chargeOf = async (model: string): Promise<number> => {
    const answer = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    await answer.arrayBuffer();
    await settled(server);
    const logs = await vip.client.get(`/api/log/self/?type=${LogType.Consume}`);
    return (logs.body.data as { quota: number }[])[0]!.quota;
  };

  test("a visitor sees the default group's models, an unpriced one included, as the relay would charge them", async () => {
    const list = await pricingOf();
    expect(list).toMatchObject({ group: 'default', group_ratio: 1, quota_per_unit: 500_000 });
    const models = byModel(list);
    expect(Object.keys(models)).toEqual(['gpt-4o', 'mystery-model', 'old-model']);
    expect(models['gpt-4o']).toMatchObject({
      source: 'catalogue',
      channel_type: 1,
      group_ratio: 1,
      price: { input: 2.5, output: 10 },
      ratio: null,
      quota_per_1k: { input: 1250, output: 5000 },
      quota_per_1m: { input: 1_250_000, output: 5_000_000 },
      varies: false,
    });
    expect(models['mystery-model']).toMatchObject({ source: 'missing', price: null, quota_per_1m: {} });
    // one-api's ratio 3 is US$6 per 1M tokens at 500,000 quota per dollar; 3 quota per token.
    expect(models['old-model']).toMatchObject({
      source: 'ratio',
      ratio: { model_ratio: 3, completion_ratio: 1 },
      price: { input: 6, output: 6 },
      quota_per_1k: { input: 3000, output: 3000 },
    });
  });

  test("a signed-in user sees their group's models with its ratio, under the name each channel maps", async () => {
    const models = byModel(await pricingOf(vip.client));
    expect(Object.keys(models)).toEqual(['gpt-4o', 'house-model', 'old-model']);
    expect(models['gpt-4o']).toMatchObject({ group_ratio: 1.5, price: { input: 3.75, output: 15 } });
    // house-model is sent to the vendor as gpt-4o-mini, and priced as such.
    expect(models['house-model']).toMatchObject({ source: 'catalogue', price: { input: 0.225, output: 0.9 } });
    expect(models['old-model']).toMatchObject({ price: { input: 9, output: 9 }, quota_per_1k: { input: 4500 } });
  });

  test('each listed price is what a call is charged: catalogue, ratio, and an admin price set just before', async () => {
    const root = await server.rootClient();
    const priced = await root.put('/api/price/', { model: 'house-model', price: { input: 1.1, output: 4.4 } });
    expect(priced.body.success).toBe(true);
    const models = byModel(await pricingOf(vip.client));
    expect(models['house-model']).toMatchObject({ source: 'catalogue' });

    // The admin priced the name the client sends; the channel sends gpt-4o-mini, which is what the relay prices.
    await root.put('/api/price/', { model: 'gpt-4o-mini', price: { input: 1.1, output: 4.4 } });
    const after = byModel(await pricingOf(vip.client));
    expect(after['house-model']).toMatchObject({ source: 'admin', price: { input: 1.65, output: 6.6 } });

    for (const model of ['gpt-4o', 'old-model', 'house-model']) {
      const listed = after[model]!;
      expect(await chargeOf(model), model).toBe(quoteOf(listed));
    }
  });

  test('a channel that cannot price the model is passed over, as the relay does; one that prices it otherwise is marked', async () => {
    const root = await server.rootClient();
    // Priced for OpenAI channels only; the Claude channel ranks first but cannot price it.
    await root.put('/api/price/', { model: 'typed-model(1)', price: { input: 7, output: 21 } });
    await createChannel(server, { base_url: upstream.url, type: 14, group: 'vip', models: 'typed-model', priority: 5 });
    await createChannel(server, { base_url: upstream.url, group: 'vip', models: 'typed-model' });
    const typed = byModel(await pricingOf(vip.client))['typed-model']!;
    expect(typed).toMatchObject({
      source: 'admin',
      channel_type: 1,
      price: { input: 10.5, output: 31.5 },
      varies: false,
    });
    expect(await chargeOf('typed-model')).toBe(quoteOf(typed));

    // A lower-priority Claude channel also serves gpt-4o, priced by one-api's table there: another price.
    await createChannel(server, { base_url: upstream.url, type: 14, group: 'vip', models: 'gpt-4o', priority: -1 });
    const models = byModel(await pricingOf(vip.client));
    expect(models['gpt-4o']).toMatchObject({ channel_type: 1, price: { input: 3.75 }, varies: true });
  });
});
