import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { availableEngines, type Engine } from '../../../test/engines.js';
import { FaultUpstream } from '../../../test/fault-upstream.js';
import { call, chargesOf, limitedToken, moveClockTo, statuses, writtenSpend } from '../../../test/limits-kit.js';
import { startNodeProcess } from '../../../test/node-process.js';
import { startRedisProcess, type RedisProcess } from '../../../test/redis-process.js';
import { createChannel, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../test/test-users.js';
import { waitFor } from '../../../test/wait-for.js';
import { beat } from '../billing/reservation-sweeper.js';
import { relayRuntime } from '../runtime.js';

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
  const limitedKey = async (limits: Record<string, number | string>) => (await limitedToken(owner, limits)).key;

  /** What a call with max_tokens `maxTokens` holds and is charged (a probe call on a token without limits). */
  const probe = async (maxTokens: number, stream = false) => {
    const token = await limitedToken(owner);
    expect((await call(nodes[0]!, token.key, 'ok', { maxTokens, stream })).status).toBe(200);
    await settled(nodes[0]!);
    const [charge] = await chargesOf(nodes[0]!, token.name);
    expect(charge!.held).toBeGreaterThan(charge!.quota);
    return { held: charge!.held, cost: charge!.quota };
  };

  test('rpm_limit 20: exactly 20 of 60 calls spread over the nodes succeed, the rest 429 with Retry-After', async () => {
    const key = await limitedKey({ rpm_limit: 20 });
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
    const key = await limitedKey({ concurrency_limit: 3 });
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
    const key = await limitedKey({ tpm_limit: 1000 });
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

  test('a weekly budget counts each call’s hold on every node, stops at its cap and opens on Monday in the operator’s zone (moved clock)', async () => {
    expect((await root.client.put('/api/option/', { key: 'TimeZone', value: 'Europe/Berlin' })).body.success).toBe(
      true,
    );
    onTestFinished(async () => void (await root.client.put('/api/option/', { key: 'TimeZone', value: 'UTC' })));
    await waitFor('every node to read the time zone', async () =>
      nodes.every((node) => node.context.options.string('TimeZone') === 'Europe/Berlin'),
    );
    // Sunday 23:55 in Berlin (UTC+1).
    moveClockTo('2026-11-29T22:55:00Z');
    // max_tokens 64: a hold no cut can shrink (a cut keeps at least 64 output tokens).
    const { held, cost } = await probe(64);
    // Room for two charges and a third call's hold, whichever nodes the calls go to; then none until Monday.
    const key = await limitedKey({ budget_quota: held + 2 * cost, budget_period: 'week' });
    const outcomes = [];
    for (let index = 0; index < 6; index++) {
      const node = nodes[index % 3]!;
      outcomes.push((await call(node, key, 'ok', { maxTokens: 64 })).status);
      await settled(node);
    }
    expect(outcomes).toEqual([200, 200, 200, 429, 429, 429]);
    // Monday 00:00:30 in Berlin.
    moveClockTo('2026-11-29T23:00:30Z');
    expect((await call(nodes[1]!, key, 'ok', { maxTokens: 64 })).status).toBe(200);
  }, 60_000);

  test('concurrent calls on three nodes cannot together pass a budget: each holds its worst case, the last one cut to the room left', async () => {
    const { held } = await probe(300, true);
    const budget = Math.floor(held * 2.5);
    const token = await limitedToken(owner, { budget_quota: budget, budget_period: 'month' });
    // Six slow streams at once, two per node: before, all six passed (nothing was spent when they started).
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        call(nodes[index % 3]!, token.key, 'slow', { stream: true, maxTokens: 300 }),
      ),
    );
    expect(statuses(outcomes)).toEqual({ 200: 3, 429: 3 });
    expect(outcomes.find((outcome) => outcome.status === 429)!.error).toMatchObject({ type: 'rate_limit_error' });
    for (const node of nodes) await settled(node);
    const charges = await chargesOf(nodes[0]!, token.name);
    // Two held whole, the third cut to what was left (its output capped to match): together exactly the budget.
    expect(charges.map((charge) => charge.held).sort((a, b) => b - a)).toEqual([held, held, budget - 2 * held]);
    expect(charges.filter((charge) => charge.outputCap !== null)).toHaveLength(1);
  }, 60_000);

  test('Redis killed mid-run: each node enforces limit ÷ live nodes and says so; restarted, the nodes share again', async () => {
    const key = await limitedKey({ rpm_limit: 30 });
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

  /** A ModelGate process (the real entry point) on the nodes' database and Redis, heartbeat 1 s (leases 3 s). */
  const nodeProcess = () => {
    const { config } = nodes[0]!.context;
    const env = {
      SQL_DSN: config.SQL_DSN!,
      REDIS_CONN_STRING: redis.url,
      REDIS_KEY_PREFIX: config.REDIS_KEY_PREFIX,
      NODE_TYPE: 'slave',
      NODE_HEARTBEAT_INTERVAL: '1',
    };
    // A start can take long on a loaded machine (tsx compiles the server first).
    return startNodeProcess(env, 90_000);
  };

  test('kill -9 of every node that served a budget and an emptied Redis: the period’s spend holds', async () => {
    const { held, cost } = await probe(64);
    const token = await limitedToken(owner, { budget_quota: held + 2 * cost, budget_period: 'month' });
    const first = await nodeProcess();
    onTestFinished(() => first.crash());
    // Each call's end trades its hold for its charge in Redis just after its answer: the next call waits for it.
    const counters = new Redis(redis.url);
    onTestFinished(() => void counters.disconnect());
    const budgetCounter = async () => {
      const [key] = await counters.keys(`${nodes[0]!.context.config.REDIS_KEY_PREFIX}lim:t:${token.id}:b:*`);
      return key ? Number(await counters.get(key)) : 0;
    };
    for (let index = 1; index <= 2; index++) {
      expect((await call(first, token.key, 'ok', { maxTokens: 64 })).status).toBe(200);
      await waitFor('the call’s end to reach Redis', async () => (await budgetCounter()) === index * cost);
    }
    // The node writes its budgets' spend every second; then it dies without a word, and Redis forgets all.
    await waitFor('the spend to be written', async () => (await writtenSpend(nodes[0]!, `t:${token.id}`)) === 2 * cost);
    await first.crash();
    await redis.kill();
    await redis.start();
    const second = await nodeProcess();
    onTestFinished(() => second.crash());
    // Two charges are remembered: the third call's hold fits, the fourth's does not, on any node.
    expect((await call(second, token.key, 'ok', { maxTokens: 64 })).status).toBe(200);
    // Rebuilt from the database: the two charges before, and this one's.
    await waitFor('the call’s end to reach Redis', async () => (await budgetCounter()) === 3 * cost);
    const refused = await call(second, token.key, 'ok', { maxTokens: 64 });
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ type: 'rate_limit_error' });
    expect((await call(nodes[0]!, token.key, 'ok', { maxTokens: 64 })).status).toBe(429);
  }, 120_000);

  test('kill -9 of a node mid-call: its concurrency slot comes back once its lease (three heartbeats) lapses', async () => {
    const token = await limitedToken(owner, { concurrency_limit: 1 });
    const doomed = await nodeProcess();
    onTestFinished(() => doomed.crash());
    const client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${doomed.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'fault:slow' }],
      stream: true,
    });
    const chunks = stream[Symbol.asyncIterator]();
    expect((await chunks.next()).done).toBe(false);
    // The only slot is the doomed node's call's, on every node.
    expect((await call(nodes[0]!, token.key)).status).toBe(429);
    await doomed.crash();
    await chunks.next().catch(() => undefined);
    await waitFor(
      'the dead node’s slot to come back',
      async () => (await call(nodes[1]!, token.key)).status === 200,
      20_000,
    );
    // And only that one slot: calls run one at a time again.
    const together = await Promise.all(
      Array.from({ length: 3 }, (_, index) => call(nodes[index]!, token.key, 'slow', { stream: true })),
    );
    expect(statuses(together)).toEqual({ 200: 1, 429: 2 });
  }, 120_000);
});
