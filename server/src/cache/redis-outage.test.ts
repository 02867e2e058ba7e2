import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signUp, uniqueName } from '../../test/account-helpers.js';
import type { ApiClient } from '../../test/api-client.js';
import { MockOpenAIUpstream } from '../../test/mock-openai-upstream.js';
import { startRedisProcess, type RedisProcess } from '../../test/redis-process.js';
import { createChannel, createToken, createUser, priceUnknownModels } from '../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { readRunProgress, startExclusiveRun } from '../domain/channel/exclusive-run.js';
import { consumeCode, saveCode } from '../domain/user/verification-code.store.js';
import { startJobs } from '../jobs/scheduler.js';
import { waitFor } from '../../test/wait-for.js';

const statusOf = async (server: TestServer) => {
  const response = await server.client().get('/api/status');
  return { status: response.status, data: response.body.data as Record<string, unknown> };
};
const isDegraded = async (server: TestServer) => (await statusOf(server)).data.degraded === true;

/** One chat completion straight over HTTP; answers the status code. */
async function chat(server: TestServer, key: string, model = 'outage-model'): Promise<number> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('a node whose Redis goes away', () => {
  let redis: RedisProcess;
  let upstream: MockOpenAIUpstream;
  let nodeA: TestServer;
  let nodeB: TestServer;
  let lateNode: TestServer | undefined;
  let member: { client: ApiClient; id: number; username: string };
  let relayKey: string;
  let relayTokenId: number;
  let doomedChannelId: number;

  beforeAll(async () => {
    redis = await startRedisProcess();
    upstream = await MockOpenAIUpstream.start();
    const env = { REDIS_CONN_STRING: redis.url, REDIS_KEY_PREFIX: `mgoutage:${randomBytes(4).toString('hex')}:` };
    nodeA = await startTestServer({ env });
    // Node B counts critical calls (sign-in, registration) per IP: 3 per 20 minutes.
    nodeB = await startTestServer({ env: { ...env, CRITICAL_RATE_LIMIT: '3' }, shareDatabaseWith: nodeA });
    const username = uniqueName('out');
    member = { ...(await signUp(nodeA, username)), username };
    await priceUnknownModels(nodeA);
    await priceUnknownModels(nodeB);
    await createChannel(nodeA, { base_url: upstream.url, models: 'outage-model' });
    doomedChannelId = (await createChannel(nodeA, { base_url: upstream.url, models: 'doomed-model' })).id;
    const relayUser = await createUser(nodeA, { username: uniqueName('rel'), quota: 100_000_000 });
    ({ key: relayKey, id: relayTokenId } = await createToken(nodeA, relayUser));
  });

  afterAll(async () => {
    await lateNode?.close();
    await nodeB?.close();
    await nodeA?.close();
    await upstream?.close();
    await redis?.kill();
  });

  test('keeps serving /api and /v1 from its caches and the database, and says it is degraded', async () => {
    const healthy = await statusOf(nodeA);
    expect(healthy).toMatchObject({ status: 200, data: { degraded: false, degraded_reasons: [] } });
    // Both nodes see the channels (node B through the bus) and node B caches the relay token.
    await waitFor('node B routes to the new channels', async () => (await chat(nodeB, relayKey)) === 200);
    expect(await chat(nodeB, relayKey, 'doomed-model')).toBe(200);

    await redis.kill();
    await waitFor('node A reports degraded', () => isDegraded(nodeA), 5000);

    const status = await statusOf(nodeA);
    expect(status.status).toBe(200);
    // Every one-api field is still there, unchanged; only the two new ones say what is missing, and the limits
    // are shared among the live nodes (issue 31).
    expect(status.data).toEqual({
      ...healthy.data,
      degraded: true,
      degraded_reasons: ['redis'],
      limits: { mode: 'shared', nodes: expect.any(Number) },
    });

    expect((await member.client.get('/api/user/self')).body).toMatchObject({
      success: true,
      data: { username: member.username },
    });
    const created = await member.client.post('/api/token', { name: 'during-outage', unlimited_quota: true });
    expect(created.body).toMatchObject({ success: true });
    const listed = await member.client.get('/api/token');
    expect((listed.body.data as { name: string }[]).map((token) => token.name)).toContain('during-outage');

    const root = await nodeA.rootClient();
    expect((await root.put('/api/channel/', { id: doomedChannelId, status: 2 })).body).toMatchObject({
      success: true,
    });
    // The write's local handlers ran although its publish failed: node A stops routing to the channel.
    await waitFor('node A stops routing to the disabled channel', async () => {
      return (await chat(nodeA, relayKey, 'doomed-model')) === 404;
    });
    expect(await chat(nodeA, relayKey)).toBe(200);

    // Node B kept its cached token; disabling it on node A is published nowhere during the outage.
    await nodeA.context.database.db.updateTable('tokens').set({ status: 2 }).where('id', '=', relayTokenId).execute();
    await nodeA.context.bus.publish('token', relayKey);
    expect(await chat(nodeA, relayKey)).toBe(401);
    expect(await chat(nodeB, relayKey)).toBe(200);
  });

  test('limits, codes, locks and background runs fall back to this node', async () => {
    // Rate limits count per node instead of failing every call (node B allows 3 critical calls).
    const client = nodeB.client();
    const attempts: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++)
      attempts.push((await client.post('/api/user/login', { username: 'nobody', password: 'wrong-pass' })).status);
    expect(attempts.slice(0, 3).every((status) => status !== 429 && status < 500)).toBe(true);
    expect(attempts[3]).toBe(429);

    // A verification code is kept on this node for the outage, and still works once.
    await saveCode(nodeA.context, 'verification', 'outage@example.com', 'abc123');
    expect(await consumeCode(nodeA.context, 'verification', 'outage@example.com', 'abc123')).toBe(true);
    expect(await consumeCode(nodeA.context, 'verification', 'outage@example.com', 'abc123')).toBe(false);

    // A job that normally takes a cluster-wide lock runs on this node.
    let runs = 0;
    const jobs = startJobs(nodeA.context, [
      { name: 'outage-probe', intervalSeconds: () => 1, run: async () => void (runs += 1) },
    ]);
    try {
      await waitFor('the locked job runs without Redis', async () => runs > 0, 5000);
    } finally {
      await jobs.stop();
    }

    const run = await startExclusiveRun(nodeA.context, 'outage-run', 'all', async (reporter) => {
      await reporter.setTotal(2);
      await reporter.advance();
      await reporter.advance();
    });
    expect(run).not.toBeNull();
    await run!.finished;
    expect(await readRunProgress(nodeA.context, 'outage-run')).toMatchObject({ running: false, done: 2, total: 2 });
  });

  test('a node started while Redis is down starts degraded', async () => {
    const started = Date.now();
    lateNode = await startTestServer({ env: { REDIS_CONN_STRING: redis.url } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await statusOf(lateNode)).data).toMatchObject({ degraded: true, degraded_reasons: ['redis'] });
    expect((await (await lateNode.rootClient()).get('/api/user/self')).body.success).toBe(true);
  });

  test('when Redis returns, degraded clears, stale caches are dropped and invalidations flow again', async () => {
    await redis.start();
    const recoveredMs = await waitFor(
      'every node recovers',
      async () => !(await isDegraded(nodeA)) && !(await isDegraded(nodeB)) && !(await isDegraded(lateNode!)),
      10_000,
    );
    expect(recoveredMs).toBeLessThan(10_000);
    expect(await statusOf(nodeB)).toMatchObject({ status: 200, data: { degraded: false, degraded_reasons: [] } });

    // The token disabled during the outage: node B dropped its cached copy on reconnecting.
    await waitFor('node B refuses the token disabled during the outage', async () => {
      return (await chat(nodeB, relayKey)) === 401;
    });
    // And node B reloaded its channels: the one disabled during the outage is gone there too.
    const freshUser = await createUser(nodeA, { username: uniqueName('rel'), quota: 100_000_000 });
    const { key: freshKey } = await createToken(nodeA, freshUser);
    expect(await chat(nodeB, freshKey, 'doomed-model')).toBe(404);

    // Rate limits are counted in Redis again, across nodes: three sign-ins from one address on node A use up
    // node B's allowance of three for that address.
    const address = { 'x-forwarded-for': '10.9.8.7' };
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await nodeA.client().post('/api/user/login', { username: 'nobody', password: 'x' }, address);
      expect(response.status).not.toBe(429);
    }
    const refused = await nodeB.client().post('/api/user/login', { username: 'nobody', password: 'x' }, address);
    expect(refused.status).toBe(429);

    // A ban on node A reaches node B through Redis again.
    const accessToken = (await member.client.get('/api/user/token')).body.data as string;
    const onNodeB = nodeB.client(accessToken);
    expect((await onNodeB.get('/api/user/self')).body.success).toBe(true);
    const root = await nodeA.rootClient();
    expect((await root.post('/api/user/manage', { username: member.username, action: 'disable' })).body.success).toBe(
      true,
    );
    await waitFor(
      'node B refuses the banned user',
      async () => (await onNodeB.get('/api/user/self')).body.message === '用户已被封禁',
      3000,
    );
  });
});
