import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { autoEnableChannel } from '../../domain/channel/channel-status.service.js';
import { MockOpenAIUpstream, type MockBehaviour } from '../../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser, priceUnknownModels, setOption } from '../../../test/relay-fixtures.js';
import { startTestServer } from '../../../test/test-server.js';
import { relayRuntime } from '../runtime.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const serverError: MockBehaviour = { failure: { status: 500 } };

/** A server with one user and its SDK client, mock upstreams made on demand, and channel status reads. */
async function relaySetup(env: Record<string, string>) {
  const server = await startTestServer({ env });
  await priceUnknownModels(server);
  const upstreams: MockOpenAIUpstream[] = [];
  const userId = await createUser(server, { username: 'metric', quota: 100_000_000 });
  const client = new OpenAI({
    apiKey: `sk-${(await createToken(server, userId)).key}`,
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
  });
  return {
    server,
    /** A mock upstream behind a channel of its own serving `model`. */
    async channel(model: string, priority = 0) {
      const upstream = await MockOpenAIUpstream.start();
      upstreams.push(upstream);
      const row = await createChannel(server, { base_url: upstream.url, models: model, name: model, priority });
      return { id: row.id, upstream };
    },
    /** One chat call; resolves to the HTTP status the client saw. */
    ask: (model: string, using = client) =>
      using.chat.completions
        .create({ model, messages: [{ role: 'user', content: 'hi' }] })
        .then(() => 200)
        .catch((error: { status?: number }) => error.status ?? 0),
    async status(channelId: number) {
      const row = await server.context.database.db
        .selectFrom('channels')
        .select('status')
        .where('id', '=', channelId)
        .executeTakeFirstOrThrow();
      return Number(row.status);
    },
    async close() {
      await server.close();
      await Promise.all(upstreams.map((upstream) => upstream.close()));
    },
  };
}

describe('success-rate metric with ENABLE_METRIC on', () => {
  let setup: Awaited<ReturnType<typeof relaySetup>>;
  let pusher: Server;
  const notices: { title: string; content: string }[] = [];

  beforeAll(async () => {
    setup = await relaySetup({ ENABLE_METRIC: 'true' });
    // Root is told through the message pusher, the same path as every automatic disable.
    pusher = createServer((request, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        notices.push(JSON.parse(Buffer.concat(parts).toString('utf8')) as { title: string; content: string });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"message":""}');
      });
    });
    await new Promise<void>((resolve) => pusher.listen(0, '127.0.0.1', resolve));
    const { port } = pusher.address() as AddressInfo;
    await setOption(setup.server, 'MessagePusherAddress', `http://127.0.0.1:${port}/push`);
  });
  afterAll(async () => {
    await setup?.close();
    await new Promise<void>((resolve) => pusher?.close(() => resolve()));
  });

  test('a channel whose last 10 calls fall below 80 % success is disabled, root is told, and the window starts over', async () => {
    const { id, upstream } = await setup.channel('metric-flaky');
    for (let call = 0; call < 8; call++) expect(await setup.ask('metric-flaky')).toBe(200);
    upstream.set(serverError);
    // Ten outcomes at exactly 80 %: not below the threshold.
    expect([await setup.ask('metric-flaky'), await setup.ask('metric-flaky')]).toEqual([500, 500]);
    await sleep(100);
    expect(await setup.status(id)).toBe(1);
    // The oldest success leaves the window: 7 of 10. AutomaticDisableChannelEnabled is off, which does not matter.
    expect(await setup.ask('metric-flaky')).toBe(500);
    await expect.poll(() => setup.status(id), { timeout: 3000 }).toBe(3);
    await expect.poll(() => notices.length, { timeout: 3000 }).toBe(1);
    expect(notices[0]).toMatchObject({
      title: '渠道状态变更提醒',
      content: expect.stringContaining('最近 10 次请求成功率 70.00% 低于阈值 80.00%'),
    });
    expect(notices[0]!.content).toContain('metric-flaky');

    // Back in service, a single failure does not disable it again: the window was emptied.
    await autoEnableChannel(setup.server.context, id, 'metric-flaky');
    await relayRuntime(setup.server.context).router.reload();
    expect(await setup.ask('metric-flaky')).toBe(500);
    await sleep(100);
    expect(await setup.status(id)).toBe(1);
  });

  test('a healthy channel with an occasional failure stays enabled', async () => {
    const { id, upstream } = await setup.channel('metric-healthy');
    for (let call = 0; call < 30; call++) {
      upstream.set(call % 10 === 4 ? serverError : {});
      await setup.ask('metric-healthy');
    }
    await sleep(100);
    expect(await setup.status(id)).toBe(1);
  });

  test('requests the upstream rejects as bad (400) do not count against the channel', async () => {
    const { id, upstream } = await setup.channel('metric-bad-requests');
    upstream.set({ failure: { status: 400, error: { message: 'bad request', type: 'invalid_request_error' } } });
    for (let call = 0; call < 12; call++) expect(await setup.ask('metric-bad-requests')).toBe(400);
    await sleep(100);
    expect(await setup.status(id)).toBe(1);
  });

  test('with AutomaticDisableChannelEnabled on, a fatal failure still disables the channel at once', async () => {
    const { id, upstream } = await setup.channel('metric-fatal');
    upstream.set({
      failure: { status: 401, error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    });
    await setOption(setup.server, 'AutomaticDisableChannelEnabled', 'true');
    try {
      expect(await setup.ask('metric-fatal')).toBe(401);
      await expect.poll(() => setup.status(id), { timeout: 3000 }).toBe(3);
      await expect.poll(() => notices.at(-1)?.content, { timeout: 3000 }).toContain('status code 401');
    } finally {
      await setOption(setup.server, 'AutomaticDisableChannelEnabled', 'false');
    }
  });

  test('failed first attempts count, successful retries do not', async () => {
    await setOption(setup.server, 'RetryTimes', '1');
    try {
      const primary = await setup.channel('metric-retry', 10);
      const standby = await setup.channel('metric-retry', 0);
      primary.upstream.set(serverError);
      for (let call = 0; call < 10; call++) expect(await setup.ask('metric-retry')).toBe(200);
      expect(standby.upstream.requests).toHaveLength(10);
      await expect.poll(() => setup.status(primary.id), { timeout: 3000 }).toBe(3);

      // Had the 10 retries counted, 3 failures would make 7 of 10 and disable the standby; they did not.
      const adminId = await createUser(setup.server, { username: 'metric-admin', quota: 100_000_000, role: 10 });
      const forced = new OpenAI({
        apiKey: `sk-${(await createToken(setup.server, adminId)).key}-${standby.id}`,
        baseURL: `${setup.server.url}/v1`,
        maxRetries: 0,
      });
      standby.upstream.set(serverError);
      for (let call = 0; call < 3; call++) expect(await setup.ask('metric-retry', forced)).toBe(500);
      await sleep(100);
      expect(await setup.status(standby.id)).toBe(1);
    } finally {
      await setOption(setup.server, 'RetryTimes', '0');
    }
  });
});

describe('success-rate metric with ENABLE_METRIC off (the default)', () => {
  let setup: Awaited<ReturnType<typeof relaySetup>>;
  beforeAll(async () => {
    setup = await relaySetup({});
  });
  afterAll(async () => {
    await setup?.close();
  });

  test('a failing channel is never disabled for its success rate', async () => {
    const { id, upstream } = await setup.channel('metric-off');
    for (let call = 0; call < 5; call++) expect(await setup.ask('metric-off')).toBe(200);
    upstream.set(serverError);
    for (let call = 0; call < 15; call++) expect(await setup.ask('metric-off')).toBe(500);
    await sleep(100);
    expect(await setup.status(id)).toBe(1);
  });
});
