import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FaultUpstream } from '../../../../test/fault-upstream.js';
import { createChannel } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../../test/test-users.js';
import { waitFor } from '../../../../test/wait-for.js';

// Issue 31's console: the counters read through the API, in memory and in Redis (each run its own key prefix).
describe.each([
  { name: 'sqlite' as const, redis: false, label: 'sqlite' },
  { name: 'sqlite' as const, redis: true, label: 'sqlite+redis' },
])('GET /api/token/limits_usage and /api/user/self/limits_usage ($label)', (engine) => {
  let server: TestServer;
  let upstream: FaultUpstream;
  let root: TestUser;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    upstream = await FaultUpstream.start();
    server = await startTestServer({ engine });
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
    root = await createTestUser(server, { role: 100 });
    owner = await createTestUser(server, { quota: 100_000_000 });
    other = await createTestUser(server, { quota: 100_000_000 });
  }, 90_000);

  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const chat = (key: string) =>
    new OpenAI({
      apiKey: `sk-${key}`,
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      timeout: 30_000,
    }).chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'fault:ok' }] });

  test('a token answers its rpm, tpm, concurrency and budget use; other users’ tokens are left out', async () => {
    const limits = {
      rpm_limit: 10,
      tpm_limit: 100_000,
      concurrency_limit: 2,
      budget_quota: 50_000_000,
      budget_period: 'week',
    };
    const limited = (await owner.client.post('/api/token/', { name: 'limited', unlimited_quota: true, ...limits })).body
      .data as { id: number; key: string };
    const plain = (await owner.client.post('/api/token/', { name: 'plain', unlimited_quota: true })).body.data as {
      id: number;
    };
    const foreign = (await other.client.post('/api/token/', { name: 'theirs', unlimited_quota: true, rpm_limit: 3 }))
      .body.data as { id: number };

    const usage = async () =>
      (await owner.client.get(`/api/token/limits_usage?ids=${limited.id},${plain.id},${foreign.id}`)).body;
    // Before any call nothing is counted, and reading creates nothing that a call would then see.
    expect(await usage()).toMatchObject({
      success: true,
      data: {
        [limited.id]: {
          rpm: { used: 0, limit: 10 },
          tpm: { used: 0, limit: 100_000 },
          concurrency: { used: 0, limit: 2 },
          budget: { spent: 0, quota: 50_000_000, period: 'week' },
        },
        [plain.id]: {
          rpm: { used: 0, limit: 0 },
          tpm: { used: 0, limit: 0 },
          concurrency: { used: 0, limit: 0 },
          budget: null,
        },
      },
    });
    const first = (await usage()).data;
    expect(Object.keys(first).sort()).toEqual([String(limited.id), String(plain.id)].sort());
    expect(first[limited.id].budget.resets_at).toBeGreaterThan(Date.now() / 1000);

    await chat(limited.key);
    await chat(limited.key);
    // The end of a call (its tokens and its charge) settles just after the answer.
    await waitFor('the calls settled', async () => {
      const data = (await usage()).data[limited.id];
      return data.tpm.used > 0 && data.budget.spent > 0;
    });
    const data = (await usage()).data[limited.id];
    expect(data.rpm.used).toBe(2);
    expect(data.concurrency.used).toBe(0);
  }, 90_000);

  test('the caller’s own budget; bad ids are refused in the envelope', async () => {
    expect(
      (await root.client.put('/api/user/', { id: owner.id, budget_quota: 90_000_000, budget_period: 'month' })).body,
    ).toMatchObject({ success: true });
    expect((await owner.client.get('/api/user/self/limits_usage')).body).toMatchObject({
      success: true,
      data: { budget: { quota: 90_000_000, period: 'month' }, rpm: { limit: 0 } },
    });
    // A budget counts the calls made while it is set.
    const token = (await owner.client.post('/api/token/', { name: 'after', unlimited_quota: true })).body.data as {
      key: string;
    };
    await chat(token.key);
    await waitFor(
      'the owner’s charges',
      async () => (await owner.client.get('/api/user/self/limits_usage')).body.data.budget.spent > 0,
    );
    expect((await other.client.get('/api/user/self/limits_usage')).body.data.budget).toBeNull();
    for (const ids of ['', 'a,b', '1,,2'])
      expect((await owner.client.get(`/api/token/limits_usage?ids=${ids}`)).body).toMatchObject({
        success: false,
        message: expect.stringContaining('ids'),
      });
    expect((await owner.client.get('/api/token/limits_usage')).body.success).toBe(false);
  }, 90_000);

  test('a call in flight holds one of the token’s concurrency slots until it ends', async () => {
    const token = (
      await owner.client.post('/api/token/', { name: 'slots', unlimited_quota: true, concurrency_limit: 3 })
    ).body.data as { id: number; key: string };
    const slots = async () =>
      (await owner.client.get(`/api/token/limits_usage?ids=${token.id}`)).body.data[token.id].concurrency;
    // A stream of 40 chunks: it is still running while the usage is read.
    const stream = await new OpenAI({
      apiKey: `sk-${token.key}`,
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    }).chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'fault:slow' }],
      stream: true,
    });
    const chunks = stream[Symbol.asyncIterator]();
    await chunks.next();
    expect(await slots()).toEqual({ used: 1, limit: 3 });
    while (!(await chunks.next()).done);
    await waitFor('the slot given back', async () => (await slots()).used === 0);
  }, 90_000);
});
