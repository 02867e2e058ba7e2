import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import {
  createChannel,
  createToken,
  createUser,
  priceUnknownModels,
  setOption,
  settled,
} from '../../../test/relay-fixtures.js';
import { readNumberColumn } from '../../../test/row-reads.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

describe.each(await availableEngines())('routing, retries and channel health on $label', (engine) => {
  let server: TestServer;
  const upstreams: MockOpenAIUpstream[] = [];
  let client: OpenAI;
  let adminKey: string;

  const mock = async (behaviour = {}) => {
    const upstream = await MockOpenAIUpstream.start(behaviour);
    upstreams.push(upstream);
    return upstream;
  };
  const ask = (model: string, extra: object = {}, using = client) =>
    using.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], ...extra });
  const channelStatus = (id: number) => readNumberColumn(server.context.database.db, 'channels', 'status', id);

  beforeAll(async () => {
    server = await startTestServer({ engine });
    await priceUnknownModels(server);
    const userId = await createUser(server, { username: 'router', quota: 100_000_000 });
    client = new OpenAI({
      apiKey: `sk-${(await createToken(server, userId)).key}`,
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const adminId = await createUser(server, { username: 'admin', quota: 100_000_000, role: 10 });
    adminKey = (await createToken(server, adminId)).key;
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(upstreams.map((upstream) => upstream.close()));
  });

  test('the highest priority tier takes all traffic', async () => {
    const high = await mock();
    const low = await mock();
    await createChannel(server, { base_url: high.url, models: 'route-priority', priority: 10 });
    await createChannel(server, { base_url: low.url, models: 'route-priority', priority: 0 });
    for (let index = 0; index < 20; index++) await ask('route-priority');
    expect(high.requests).toHaveLength(20);
    expect(low.requests).toHaveLength(0);
  });

  test('inside a tier, traffic follows the weights (weight 0 counts as 1)', async () => {
    const heavy = await mock();
    const light = await mock();
    await createChannel(server, { base_url: heavy.url, models: 'route-weight', weight: 3 });
    await createChannel(server, { base_url: light.url, models: 'route-weight', weight: 0 });
    for (let batch = 0; batch < 20; batch++) await Promise.all(Array.from({ length: 20 }, () => ask('route-weight')));
    const share = heavy.requests.length / 400;
    expect(heavy.requests.length + light.requests.length).toBe(400);
    // expected 0.75; the bounds are six standard deviations of 400 draws
    expect(share).toBeGreaterThan(0.62);
    expect(share).toBeLessThan(0.88);
  });

  test('retryable failures move to another channel, lower tiers included, never the same one twice', async () => {
    await setOption(server, 'RetryTimes', '3');
    const broken = await mock({ failure: { status: 500 } });
    const saturated = await mock({
      failure: { status: 429, error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } },
    });
    const healthy = await mock();
    await createChannel(server, { base_url: broken.url, models: 'route-retry', priority: 5 });
    await createChannel(server, { base_url: saturated.url, models: 'route-retry', priority: 5 });
    await createChannel(server, { base_url: healthy.url, models: 'route-retry', priority: 0 });
    const answer = await ask('route-retry');
    expect(answer.choices[0]!.message.content).toBe('Hello from the mock upstream');
    expect(broken.requests).toHaveLength(1);
    expect(saturated.requests).toHaveLength(1);
    expect(healthy.requests).toHaveLength(1);

    const first = await mock({ failure: { status: 502 } });
    const second = await mock({ failure: { status: 503 } });
    await createChannel(server, { base_url: first.url, models: 'route-all-down' });
    await createChannel(server, { base_url: second.url, models: 'route-all-down' });
    await expect(ask('route-all-down')).rejects.toMatchObject({ status: expect.any(Number) });
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);

    const limited = await mock({ failure: { status: 429 } });
    await createChannel(server, { base_url: limited.url, models: 'route-429' });
    const error = (await ask('route-429').catch((failure: unknown) => failure)) as { status: number; message: string };
    expect(error.status).toBe(429);
    expect(error.message).toContain('当前分组上游负载已饱和，请稍后再试');
    await setOption(server, 'RetryTimes', '0');
  });

  test('a retry reserves again from the balance the failed attempt gave back', async () => {
    await setOption(server, 'RetryTimes', '1');
    const broken = await mock({ failure: { status: 500 } });
    const healthy = await mock();
    await createChannel(server, { base_url: broken.url, models: 'route-tight', priority: 5 });
    await createChannel(server, { base_url: healthy.url, models: 'route-tight', priority: 0 });
    // Room for one reservation only: the retry succeeds only if the refund is written before it reserves.
    const userId = await createUser(server, { username: 'tight', quota: 20_000 });
    const tight = new OpenAI({
      apiKey: `sk-${(await createToken(server, userId)).key}`,
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const answer = await ask('route-tight', {}, tight);
    expect(answer.choices[0]!.message.content).toBe('Hello from the mock upstream');
    expect(broken.requests).toHaveLength(1);
    expect(healthy.requests).toHaveLength(1);
    await setOption(server, 'RetryTimes', '0');
  });

  test('client errors (400) and RetryTimes 0 are not retried', async () => {
    await setOption(server, 'RetryTimes', '2');
    const refusing = await mock({
      failure: {
        status: 400,
        error: { message: 'bad temperature', type: 'invalid_request_error', code: 'invalid_value' },
      },
    });
    const spare = await mock();
    await createChannel(server, { base_url: refusing.url, models: 'route-400', priority: 5 });
    await createChannel(server, { base_url: spare.url, models: 'route-400', priority: 0 });
    await expect(ask('route-400')).rejects.toMatchObject({ status: 400, code: 'invalid_value' });
    expect(spare.requests).toHaveLength(0);
    await setOption(server, 'RetryTimes', '0');
    const down = await mock({ failure: { status: 500 } });
    const standby = await mock();
    await createChannel(server, { base_url: down.url, models: 'route-no-retry', priority: 5 });
    await createChannel(server, { base_url: standby.url, models: 'route-no-retry', priority: 0 });
    await expect(ask('route-no-retry')).rejects.toMatchObject({ status: 500 });
    expect(standby.requests).toHaveLength(0);
  });

  test('live traffic disables a channel on a fatal error only when the option is on', async () => {
    const dead = await mock({
      failure: {
        status: 401,
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      },
    });
    const kept = await createChannel(server, { base_url: dead.url, models: 'route-dead-kept' });
    await expect(ask('route-dead-kept')).rejects.toMatchObject({ status: 401 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await channelStatus(kept.id)).toBe(1);

    await setOption(server, 'AutomaticDisableChannelEnabled', 'true');
    const disabled = await createChannel(server, { base_url: dead.url, models: 'route-dead' });
    await expect(ask('route-dead')).rejects.toMatchObject({ status: 401 });
    // Out of this node's routes before the answer left: the very next call finds no channel.
    await expect(ask('route-dead')).rejects.toMatchObject({ status: 404 });
    expect(dead.requests.filter((request) => request.json?.model === 'route-dead')).toHaveLength(1);
    await expect.poll(() => channelStatus(disabled.id), { timeout: 3000 }).toBe(3);
    const overloaded = await mock({ failure: { status: 503 } });
    const survivor = await createChannel(server, { base_url: overloaded.url, models: 'route-overloaded' });
    await expect(ask('route-overloaded')).rejects.toMatchObject({ status: 503 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await channelStatus(survivor.id)).toBe(1);
    await setOption(server, 'AutomaticDisableChannelEnabled', 'false');
    // once the snapshot follows the disable, the model has no channel left
    await expect
      .poll(async () => ((await ask('route-dead').catch((error: unknown) => error)) as { status?: number }).status, {
        timeout: 3000,
      })
      .toBe(404);
  });

  test('model mapping, forced system prompt, Azure and OpenAI-compatible URLs', async () => {
    const upstream = await mock();
    await createChannel(server, {
      base_url: upstream.url,
      models: 'route-mapped',
      model_mapping: '{"route-mapped":"upstream-model"}',
      system_prompt: 'Be brief.',
    });
    await ask('route-mapped');
    expect(upstream.lastRequest!.json.model).toBe('upstream-model');
    expect(upstream.lastRequest!.json.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
    await settled(server);
    const log = await server.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('model_name', '=', 'upstream-model')
      .executeTakeFirstOrThrow();
    expect(Boolean(log.system_prompt_reset)).toBe(true);

    await createChannel(server, {
      type: 3,
      base_url: upstream.url,
      models: 'gpt-3.5-turbo-azure',
      other: '2024-02-01',
    });
    await ask('gpt-3.5-turbo-azure', { stream: false });
    expect(upstream.lastRequest!.url).toBe(
      '/openai/deployments/gpt-35-turbo-azure/chat/completions?api-version=2024-02-01',
    );
    expect(upstream.lastRequest!.headers['api-key']).toBe('sk-upstream-key');
    expect(upstream.lastRequest!.headers.authorization).toBeUndefined();

    await createChannel(server, { type: 50, base_url: `${upstream.url}/v1/`, models: 'route-compatible' });
    await ask('route-compatible');
    expect(upstream.lastRequest!.url).toBe('/v1/chat/completions');

    // a type without an adaptor, or an adaptor without this mode, is a clean 501
    await createChannel(server, { type: 0, base_url: upstream.url, models: 'route-unknown-type' });
    await expect(ask('route-unknown-type')).rejects.toMatchObject({ status: 501, code: 'channel_type_not_supported' });
    await createChannel(server, { type: 14, base_url: upstream.url, models: 'route-no-images' });
    await expect(client.images.generate({ model: 'route-no-images', prompt: 'a cat' })).rejects.toMatchObject({
      status: 501,
      code: 'channel_type_not_supported',
    });
  });

  test('an admin can force a channel with the key suffix; bad or disabled ids are refused', async () => {
    const upstream = await mock();
    const forced = await createChannel(server, { base_url: upstream.url, models: 'something-else' });
    const admin = new OpenAI({ apiKey: `sk-${adminKey}-${forced.id}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await ask('gpt-4o-mini', {}, admin);
    expect(upstream.requests).toHaveLength(1);
    const off = await createChannel(server, { base_url: upstream.url, models: 'x', status: 2 });
    const toDisabled = new OpenAI({ apiKey: `sk-${adminKey}-${off.id}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(ask('gpt-4o-mini', {}, toDisabled)).rejects.toMatchObject({ status: 403, code: 'channel_disabled' });
    const missing = new OpenAI({ apiKey: `sk-${adminKey}-99999`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(ask('gpt-4o-mini', {}, missing)).rejects.toMatchObject({ status: 400, code: 'invalid_channel_id' });
  });

  test('channel changes announced on the bus reach the router', async () => {
    const upstream = await mock();
    const channel = await createChannel(server, { base_url: upstream.url, models: 'route-bus' });
    await ask('route-bus');
    await server.context.database.db.updateTable('channels').set({ status: 2 }).where('id', '=', channel.id).execute();
    await server.context.bus.publish('channels', channel.id);
    await expect
      .poll(async () => ((await ask('route-bus').catch((error: unknown) => error)) as { status?: number }).status, {
        timeout: 3000,
      })
      .toBe(404);
  });
});
