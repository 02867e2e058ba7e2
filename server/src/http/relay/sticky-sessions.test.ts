import Anthropic from '@anthropic-ai/sdk';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { anthropicMockKey } from '../../../test/mock-upstreams/anthropic.js';
import { fixture, fixtureJson, startMockUpstream, type MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import {
  createChannel,
  createToken,
  createUser,
  priceUnknownModels,
  setOption,
  settled,
} from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { relayRuntime } from '../../relay/runtime.js';

const codexRequest = JSON.parse(
  readFileSync(
    new URL('../../relay/fronts/responses/__fixtures__/codex-0.169.0-request.json', import.meta.url),
    'utf8',
  ),
) as Record<string, unknown>;

/**
 * Two channels of equal weight and priority serving `model`, each on its own chat mock: OpenAI-compatible
 * ones (type 50), which take Responses calls converted to chat.
 */
async function channelPair(server: TestServer, model: string) {
  const mocks = [await MockOpenAIUpstream.start(), await MockOpenAIUpstream.start()] as const;
  const channel = (mock: MockOpenAIUpstream) =>
    createChannel(server, { type: 50, base_url: `${mock.url}/v1`, models: model });
  const channels = [await channel(mocks[0]), await channel(mocks[1])] as const;
  /** Calls each mock got with `model`. */
  const hits = () => mocks.map((mock) => mock.requests.filter((request) => request.json?.model === model).length);
  const close = () => Promise.all(mocks.map((mock) => mock.close()));
  return { mocks, channels, hits, close };
}

const setStatus = async (server: TestServer, channelId: number, status: number) => {
  await server.context.database.db.updateTable('channels').set({ status }).where('id', '=', channelId).execute();
  await server.context.bus.publish('channels', channelId);
  await relayRuntime(server.context).router.reload();
};

const logOf = async (server: TestServer, requestId: string | null) => {
  await settled(server);
  return server.context.logDatabase.db
    .selectFrom('logs')
    .select(['content', 'channel_id', 'prompt_tokens'])
    .where('request_id', '=', requestId ?? '')
    .executeTakeFirstOrThrow();
};

describe.each(await availableEngines())('sticky sessions on $label', (engine) => {
  let server: TestServer;
  let client: OpenAI;
  let other: OpenAI;
  let key: string;
  let adminKey: string;
  const closers: (() => Promise<unknown>)[] = [];

  const openai = (apiKey: string) => new OpenAI({ apiKey: `sk-${apiKey}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
  const ask = (model: string, session?: string, using = client) =>
    using.chat.completions
      .create(
        { model, messages: [{ role: 'user', content: 'hi' }] },
        session ? { headers: { 'x-modelgate-session': session } } : {},
      )
      .withResponse();
  const pair = async (model: string) => {
    const made = await channelPair(server, model);
    closers.push(made.close);
    return made;
  };

  beforeAll(async () => {
    server = await startTestServer({ engine });
    await priceUnknownModels(server);
    const userId = await createUser(server, { username: 'sticky', quota: 100_000_000 });
    key = (await createToken(server, userId)).key;
    client = openai(key);
    const otherId = await createUser(server, { username: 'sticky-other', quota: 100_000_000 });
    other = openai((await createToken(server, otherId)).key);
    const adminId = await createUser(server, { username: 'sticky-admin', quota: 100_000_000, role: 10 });
    adminKey = (await createToken(server, adminId)).key;
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(closers.map((close) => close()));
  });

  test('calls of one session all land on one channel; different sessions spread over both', async () => {
    const { hits } = await pair('sticky-same');
    for (let index = 0; index < 20; index++) await ask('sticky-same', 'conversation-1');
    expect([...hits()].sort()).toEqual([0, 20]);
    for (let index = 0; index < 20; index++) await ask('sticky-same', `conversation-${index + 2}`);
    const [first, second] = hits();
    // With stickiness ignored, 20 new sessions all on one side has a chance of 2^-19.
    expect(Math.min(first!, second!)).toBeGreaterThan(0);
    expect(first! + second!).toBe(40);
  });

  test("Claude Code's, Codex's and the OpenAI clients' own session ids keep their calls on one channel", async () => {
    const anthropic = (session: string) =>
      new Anthropic({
        apiKey: key,
        baseURL: server.url,
        maxRetries: 0,
        defaultHeaders: { 'x-claude-code-session-id': session },
      });
    const claudeCode = await pair('sticky-claude-code');
    const claudeClient = anthropic(randomUUID());
    for (let index = 0; index < 10; index++)
      await claudeClient.messages.create({
        model: 'sticky-claude-code',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'hi' }],
      });
    expect([...claudeCode.hits()].sort()).toEqual([0, 10]);

    // Codex's captured first request: its session id rides in prompt_cache_key.
    const codex = await pair('sticky-codex');
    for (let index = 0; index < 10; index++) {
      const answer = await fetch(`${server.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...codexRequest, model: 'sticky-codex' }),
      });
      expect(answer.status).toBe(200);
      await answer.text();
    }
    expect([...codex.hits()].sort()).toEqual([0, 10]);

    // Codex's session_id header wins over a prompt_cache_key that changes.
    const codexHeader = await pair('sticky-codex-header');
    for (let index = 0; index < 10; index++)
      await client.chat.completions.create(
        { model: 'sticky-codex-header', messages: [{ role: 'user', content: 'hi' }], prompt_cache_key: `k-${index}` },
        { headers: { session_id: 'codex-session' } },
      );
    expect([...codexHeader.hits()].sort()).toEqual([0, 10]);

    const byUser = await pair('sticky-user');
    for (let index = 0; index < 10; index++)
      await client.chat.completions.create({
        model: 'sticky-user',
        messages: [{ role: 'user', content: 'hi' }],
        user: 'end-user-7',
      });
    expect([...byUser.hits()].sort()).toEqual([0, 10]);
  });

  test('a Responses conversation continued by previous_response_id stays on the channel that answered it', async () => {
    const { hits } = await pair('sticky-responses');
    let previous = await client.responses.create({ model: 'sticky-responses', input: 'hi' });
    for (let index = 0; index < 9; index++)
      previous = await client.responses.create({
        model: 'sticky-responses',
        input: 'and then?',
        previous_response_id: previous.id,
      });
    expect([...hits()].sort()).toEqual([0, 10]);
  });

  test('a disabled channel loses its sessions, which stay where they moved when it returns', async () => {
    const { channels, hits } = await pair('sticky-disabled');
    const { response } = await ask('sticky-disabled', 'moving');
    const first = (await logOf(server, response.headers.get('x-oneapi-request-id'))).channel_id;
    const [stuck, spare] = Number(first) === channels[0].id ? [0, 1] : [1, 0];
    await setStatus(server, channels[stuck]!.id, 2);
    for (let index = 0; index < 5; index++) await ask('sticky-disabled', 'moving');
    expect(hits()[spare]).toBe(5);
    await setStatus(server, channels[stuck]!.id, 1);
    for (let index = 0; index < 5; index++) await ask('sticky-disabled', 'moving');
    expect(hits()[stuck]).toBe(1);
    expect(hits()[spare]).toBe(10);
  });

  test('when the sticky channel fails, the retry answers elsewhere and the session follows it', async () => {
    await setOption(server, 'RetryTimes', '1');
    const { mocks, hits } = await pair('sticky-retry');
    await ask('sticky-retry', 'failing');
    const stuck = hits()[0] === 1 ? 0 : 1;
    const spare = 1 - stuck;
    mocks[stuck].set({ failure: { status: 500 } });
    const { data } = await ask('sticky-retry', 'failing');
    expect(data.choices[0]!.message.content).toBe('Hello from the mock upstream');
    expect(hits()).toEqual(stuck === 0 ? [2, 1] : [1, 2]);
    mocks[stuck].set({});
    for (let index = 0; index < 5; index++) await ask('sticky-retry', 'failing');
    expect(hits()[stuck]).toBe(2);
    expect(hits()[spare]).toBe(6);
    await setOption(server, 'RetryTimes', '0');
  });

  test("a forced channel wins over the session's and leaves the session where it was", async () => {
    const { channels, hits } = await pair('sticky-forced');
    await ask('sticky-forced', 'forced');
    const stuck = hits()[0] === 1 ? 0 : 1;
    const spare = 1 - stuck;
    const admin = openai(`${adminKey}-${channels[spare]!.id}`);
    await ask('sticky-forced', 'forced', admin);
    expect(hits()[spare]).toBe(1);
    for (let index = 0; index < 5; index++) await ask('sticky-forced', 'forced');
    expect(hits()[stuck]).toBe(6);
  });

  test("one token's session does not steer another token's session of the same id", async () => {
    const { hits } = await pair('sticky-scoped');
    /** Which channel `call` went to. */
    const landing = async (call: () => Promise<unknown>) => {
      const before = hits()[0];
      await call();
      return hits()[0] === before ? 1 : 0;
    };
    let same = 0;
    const trials = 16;
    for (let trial = 0; trial < trials; trial++) {
      const mine = await landing(() => ask('sticky-scoped', `shared-${trial}`));
      const theirs = await landing(() => ask('sticky-scoped', `shared-${trial}`, other));
      if (mine === theirs) same++;
    }
    // Shared sessions would make all 16 agree; independent ones agree all 16 times with a chance of 2^-16.
    expect(same).toBeLessThan(trials);
  });

  test('a session ends after StickySessionTtlSeconds without a call; 0 turns stickiness off', async () => {
    await pair('sticky-ttl');
    await setOption(server, 'StickySessionTtlSeconds', '1');
    const session = `ttl-${randomUUID()}`;
    const content = async () =>
      (await logOf(server, (await ask('sticky-ttl', session)).response.headers.get('x-oneapi-request-id'))).content;
    expect(await content()).toContain('会话保持未命中');
    expect(await content()).toContain('会话保持命中');
    // Each call extends the session: calls 0.6 s apart keep it.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await content()).toContain('会话保持命中');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await content()).toContain('会话保持命中');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await content()).toContain('会话保持未命中');
    await setOption(server, 'StickySessionTtlSeconds', '0');
    expect(await content()).not.toContain('会话保持');
    await setOption(server, 'StickySessionTtlSeconds', '3600');
  });

  test('the consume log shows the prompt cache the vendor reported and whether the call stayed on its channel', async () => {
    const { mocks } = await pair('sticky-cache');
    for (const mock of mocks)
      mock.set({
        usage: { prompt_tokens: 1200, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1024 } },
      });
    const first = await ask('sticky-cache', 'cached');
    expect((await logOf(server, first.response.headers.get('x-oneapi-request-id'))).content).toMatch(
      /缓存读取 1024 tokens，会话保持未命中$/,
    );
    const streamed = await client.chat.completions
      .create(
        {
          model: 'sticky-cache',
          messages: [{ role: 'user', content: 'hi' }],
          stream: true,
          stream_options: { include_usage: true },
        },
        { headers: { 'x-modelgate-session': 'cached' } },
      )
      .withResponse();
    for await (const _chunk of streamed.data);
    const log = await logOf(server, streamed.response.headers.get('x-oneapi-request-id'));
    expect(log).toMatchObject({ prompt_tokens: 1200 });
    expect(log.content).toMatch(/缓存读取 1024 tokens，会话保持命中$/);

    // Claude's cache reads and writes, whole and streamed (18 uncached + 1250 written + 3000 read).
    const claude: MockUpstream = await startMockUpstream(async (request, reply) => {
      if ((request.json as { stream?: boolean }).stream)
        return reply.stream('text/event-stream', fixture('anthropic', 'thinking-stream.sse'));
      return reply.json(200, fixtureJson('anthropic', 'thinking-tool-use.json'));
    });
    closers.push(() => claude.close());
    await createChannel(server, { type: 14, key: anthropicMockKey, base_url: claude.url, models: 'sticky-claude' });
    const whole = await ask('sticky-claude');
    expect(await logOf(server, whole.response.headers.get('x-oneapi-request-id'))).toMatchObject({
      prompt_tokens: 4268,
      content: expect.stringMatching(/缓存读取 3000 tokens，缓存写入 1250 tokens$/),
    });
    expect(whole.data.usage).toMatchObject({ prompt_tokens: 4268, prompt_tokens_details: { cached_tokens: 3000 } });
    const stream = await client.chat.completions
      .create({
        model: 'sticky-claude',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    for await (const _chunk of stream.data);
    expect((await logOf(server, stream.response.headers.get('x-oneapi-request-id'))).content).toMatch(
      /缓存读取 3000 tokens，缓存写入 1250 tokens$/,
    );
  });
});

const withRedis = (await availableEngines()).filter((engine) => engine.redis);

describe.runIf(withRedis.length > 0).each(withRedis)('sticky sessions shared by two nodes on $label', (engine) => {
  let first: TestServer;
  let second: TestServer;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    first = await startTestServer({ engine });
    second = await startTestServer({ engine, shareDatabaseWith: first });
    await priceUnknownModels(first);
    await priceUnknownModels(second);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await Promise.all(closers.map((close) => close()));
  });

  test("a session recorded on one node steers the other node's calls", async () => {
    const { hits, close } = await channelPair(first, 'sticky-nodes');
    closers.push(close);
    await relayRuntime(second.context).router.reload();
    const userId = await createUser(first, { username: 'sticky-nodes', quota: 10_000_000 });
    const { key } = await createToken(first, userId);
    const via = (server: TestServer) => new OpenAI({ apiKey: `sk-${key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const ask = (server: TestServer, session: string) =>
      via(server).chat.completions.create(
        { model: 'sticky-nodes', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'x-modelgate-session': session } },
      );
    for (let trial = 0; trial < 8; trial++) {
      const before = hits();
      await ask(first, `nodes-${trial}`);
      for (let index = 0; index < 4; index++) await ask(second, `nodes-${trial}`);
      const grew = hits().map((count, index) => count - before[index]!);
      expect([...grew].sort()).toEqual([0, 5]);
    }
  });
});
