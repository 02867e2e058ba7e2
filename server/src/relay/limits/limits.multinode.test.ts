import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { availableEngines, type Engine } from '../../../test/engines.js';
import { FaultUpstream, type FaultKind } from '../../../test/fault-upstream.js';
import { startRedisProcess, type RedisProcess } from '../../../test/redis-process.js';
import { createChannel, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../test/test-users.js';
import { waitFor } from '../../../test/wait-for.js';
import { beat } from '../billing/reservation-sweeper.js';
import { relayRuntime } from '../runtime.js';

/** One call through the official SDK: its status and the headers it came back with. */
async function call(
  node: TestServer,
  key: string,
  kind: FaultKind = 'ok',
  options: { stream?: boolean; maxTokens?: number } = {},
): Promise<{ status: number; headers: Headers; error?: { type?: string; code?: string | null } }> {
  const client = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${node.url}/v1`, maxRetries: 0, timeout: 30_000 });
  const request = {
    model: 'gpt-3.5-turbo',
    messages: [{ role: 'user' as const, content: `fault:${kind}` }],
    ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
  };
  try {
    if (options.stream) {
      const { data, response } = await client.chat.completions.create({ ...request, stream: true }).withResponse();
      for await (const chunk of data) void chunk;
      return { status: response.status, headers: response.headers };
    }
    const { response } = await client.chat.completions.create(request).withResponse();
    return { status: response.status, headers: response.headers };
  } catch (error) {
    if (!(error instanceof OpenAI.APIError) || error instanceof OpenAI.APIConnectionError) throw error;
    const body = error.error as { type?: string; code?: string | null } | undefined;
    return { status: error.status ?? 0, headers: error.headers as Headers, error: body };
  }
}

const MachineDate = globalThis.Date;

/** Runs this process's wall clock (every in-process node's) from `isoTime` on; timers and databases keep theirs. */
function moveClockTo(isoTime: string): void {
  const offsetMs = Date.parse(isoTime) - MachineDate.now();
  class MovedDate extends MachineDate {
    constructor(...args: ConstructorParameters<typeof Date> | []) {
      if (args.length === 0) super(MachineDate.now() + offsetMs);
      else super(...(args as ConstructorParameters<typeof Date>));
    }

    static override now() {
      return MachineDate.now() + offsetMs;
    }
  }
  globalThis.Date = MovedDate as DateConstructor;
  onTestFinished(() => void (globalThis.Date = MachineDate));
}

const statuses = (outcomes: { status: number }[]) => {
  const counts: Record<number, number> = {};
  for (const { status } of outcomes) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

/** MariaDB and PostgreSQL, each with Redis (a private redis-server, which the last test kills and restarts). */
const engines = (await availableEngines())
  .filter((engine) => engine.name !== 'sqlite')
  .map((engine): Engine => ({
    ...engine,
    redis: true,
    label: `${engine.name === 'mysql' ? 'mariadb' : 'postgres'}+redis`,
  }));

/**
 * Issue 31: limits hold across three nodes sharing the database and Redis: each admission is one step in
 * Redis, so the nodes together let exactly the limit through.
 */
describe.each(engines)('limits across three nodes on $label', (engine) => {
  let redis: RedisProcess;
  let upstream: FaultUpstream;
  const nodes: TestServer[] = [];
  let root: TestUser;
  let owner: TestUser;

  beforeAll(async () => {
    redis = await startRedisProcess();
    upstream = await FaultUpstream.start();
    const env = { REDIS_CONN_STRING: redis.url, NODE_HEARTBEAT_INTERVAL: '1' };
    nodes.push(await startTestServer({ engine, env }));
    for (let index = 1; index < 3; index++)
      nodes.push(await startTestServer({ engine, env, shareDatabaseWith: nodes[0] }));
    await createChannel(nodes[0]!, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
    // The other nodes hear of the channel on the bus; this waits for their routes.
    for (const node of nodes.slice(1)) await relayRuntime(node.context).router.reload();
    root = await createTestUser(nodes[0]!, { role: 100 });
    owner = await createTestUser(nodes[0]!, { quota: 100_000_000 });
  }, 90_000);

  afterAll(async () => {
    for (const node of nodes.reverse()) await node.close();
    await upstream?.close();
    await redis?.kill();
  }, 60_000);

  /** A token of the owner's with the given limits, set through PUT /api/token/ (every node drops its copy). */
  const limitedToken = async (limits: Record<string, number | string>) => {
    const created = await owner.client.post('/api/token/', { name: 'limited', unlimited_quota: true });
    expect(created.body.success).toBe(true);
    const updated = await owner.client.put('/api/token/', { id: created.body.data.id, ...limits });
    expect(updated.body).toMatchObject({ success: true, data: limits });
    return created.body.data.key as string;
  };

  test('rpm_limit 20: exactly 20 of 60 calls spread over the nodes succeed, the rest 429 with Retry-After', async () => {
    const key = await limitedToken({ rpm_limit: 20 });
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, index) => call(nodes[index % 3]!, key)));
    expect(statuses(outcomes)).toEqual({ 200: 20, 429: 40 });
    const refused = outcomes.find((outcome) => outcome.status === 429)!;
    expect(refused.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const admitted = outcomes.filter((outcome) => outcome.status === 200);
    expect(admitted.every((outcome) => outcome.headers.get('x-ratelimit-limit-requests') === '20')).toBe(true);
    const remaining = admitted.map((outcome) => Number(outcome.headers.get('x-ratelimit-remaining-requests')));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(admitted[0]!.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d+m)?\d+s$/);
  }, 60_000);

  test('concurrency_limit 3: exactly 3 of 12 simultaneous slow calls run; a slot comes back when one ends', async () => {
    const key = await limitedToken({ concurrency_limit: 3 });
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) => call(nodes[index % 3]!, key, 'slow', { stream: true })),
    );
    expect(statuses(outcomes)).toEqual({ 200: 3, 429: 9 });
    // All three slots came back at completion: three more run together.
    const again = await Promise.all(
      Array.from({ length: 3 }, (_, index) => call(nodes[index]!, key, 'slow', { stream: true })),
    );
    expect(statuses(again)).toEqual({ 200: 3 });
  }, 60_000);

  test('tpm_limit: the prompt estimate and max_tokens are held at admission, the real count settles at the end', async () => {
    // Each call holds its prompt (a few tokens) and max_tokens 300: three fit in 1,000, a fourth does not.
    const key = await limitedToken({ tpm_limit: 1000 });
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, index) => call(nodes[index % 3]!, key, 'slow', { stream: true, maxTokens: 300 })),
    );
    expect(statuses(outcomes)).toEqual({ 200: 3, 429: 3 });
    // Settled at 32 real tokens each, the window has room for two more such calls, not three.
    const more = await Promise.all(
      Array.from({ length: 3 }, (_, index) => call(nodes[index]!, key, 'slow', { stream: true, maxTokens: 300 })),
    );
    expect(statuses(more)).toEqual({ 200: 2, 429: 1 });
    const headers = more.find((outcome) => outcome.status === 200)!.headers;
    expect(headers.get('x-ratelimit-limit-tokens')).toBe('1000');
    expect(Number(headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(1000 - 96 - 300);
  }, 60_000);

  test("a user's limit and the group's per-model default hold for all of the user's tokens", async () => {
    const user = await createTestUser(nodes[0]!, { quota: 100_000_000 });
    const set = await root.client.put('/api/user/', { id: user.id, rpm_limit: 4 });
    expect(set.body).toMatchObject({ success: true, data: { rpm_limit: 4 } });
    const keys: string[] = [];
    for (let index = 0; index < 2; index++) {
      const created = await user.client.post('/api/token/', { name: `t${index}`, unlimited_quota: true });
      keys.push(created.body.data.key);
    }
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) => call(nodes[index % 3]!, keys[index % 2]!)),
    );
    expect(statuses(outcomes)).toEqual({ 200: 4, 429: 6 });
  }, 60_000);

  test('a weekly budget stops at its cap on every node and opens on Monday in the operator’s zone (moved clock)', async () => {
    expect((await root.client.put('/api/option/', { key: 'TimeZone', value: 'Europe/Berlin' })).body.success).toBe(
      true,
    );
    onTestFinished(async () => void (await root.client.put('/api/option/', { key: 'TimeZone', value: 'UTC' })));
    await waitFor('every node to read the time zone', async () =>
      nodes.every((node) => node.context.options.string('TimeZone') === 'Europe/Berlin'),
    );
    // Sunday 23:55 in Berlin (UTC+1).
    moveClockTo('2026-11-29T22:55:00Z');
    const probe = await limitedToken({});
    expect((await call(nodes[0]!, probe)).status).toBe(200);
    await settled(nodes[0]!);
    const cost = Number(
      (
        await nodes[0]!.context.database.db
          .selectFrom('tokens')
          .select('used_quota')
          .where('key', '=', probe)
          .executeTakeFirstOrThrow()
      ).used_quota,
    );
    expect(cost).toBeGreaterThan(0);
    // Room for three calls (the third starts below the cap), whichever nodes they go to; then none until Monday.
    const key = await limitedToken({ budget_quota: Math.floor(cost * 2.5), budget_period: 'week' });
    const outcomes = [];
    for (let index = 0; index < 6; index++) {
      const node = nodes[index % 3]!;
      outcomes.push((await call(node, key)).status);
      await settled(node);
    }
    expect(outcomes).toEqual([200, 200, 200, 429, 429, 429]);
    // Monday 00:00:30 in Berlin.
    moveClockTo('2026-11-29T23:00:30Z');
    expect((await call(nodes[1]!, key)).status).toBe(200);
  }, 60_000);

  test('Redis killed mid-run: each node enforces limit ÷ live nodes and says so; restarted, the nodes share again', async () => {
    const key = await limitedToken({ rpm_limit: 30 });
    // In-process nodes run no jobs: their heartbeats (which tell how many nodes are alive) are beaten here.
    const beating = setInterval(() => nodes.forEach((node) => void beat(node.context).catch(() => undefined)), 300);
    onTestFinished(() => clearInterval(beating));
    for (const node of nodes) await beat(node.context);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // A first call on each node reads the live nodes (three heartbeats).
    const warm = await Promise.all(nodes.map((node) => call(node, key)));
    expect(statuses(warm)).toEqual({ 200: 3 });
    await redis.kill();
    await waitFor('every node to see Redis gone', async () => {
      const answers = await Promise.all(nodes.map((node) => fetch(`${node.url}/api/status`).then((r) => r.json())));
      return answers.every((answer) => answer.data.limits.mode === 'shared');
    });
    const status = await (await fetch(`${nodes[1]!.url}/api/status`)).json();
    expect(status.data).toMatchObject({ degraded: true, limits: { mode: 'shared', nodes: 3 } });
    // 30 ÷ 3 = 10 per node, counted on each node from the loss.
    const outcomes = await Promise.all(Array.from({ length: 45 }, (_, index) => call(nodes[index % 3]!, key)));
    expect(statuses(outcomes)).toEqual({ 200: 30, 429: 15 });
    for (const node of nodes) {
      const perNode = outcomes.filter((_, index) => nodes[index % 3] === node);
      expect(statuses(perNode)).toEqual({ 200: 10, 429: 5 });
    }
    await redis.start();
    await waitFor(
      'every node to use Redis again',
      async () => {
        const answers = await Promise.all(nodes.map((node) => fetch(`${node.url}/api/status`).then((r) => r.json())));
        return answers.every((answer) => answer.data.limits.mode === 'redis');
      },
      20_000,
    );
    // The restarted Redis is empty: a fresh window of 30 across the three nodes.
    const after = await Promise.all(Array.from({ length: 45 }, (_, index) => call(nodes[index % 3]!, key)));
    expect(statuses(after)).toEqual({ 200: 30, 429: 15 });
  }, 90_000);
});
