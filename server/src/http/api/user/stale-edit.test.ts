import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../../test/mock-openai-upstream.js';
import { testCharge } from '../../../../test/quota-charges.js';
import { balances, createChannel, createToken, settled } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser } from '../../../../test/test-users.js';
import { LogType } from '../../../domain/log/log.constants.js';
import { relayRuntime } from '../../../relay/runtime.js';

const engines = await availableEngines();

/** An admin's edit page opened, charges made meanwhile, then saved: issue 29, point 3. */
describe.each(engines)('an edit saved from a page loaded before charges, on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let root: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start();
    root = await server.rootClient();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const chat = (apiKey: string, node: TestServer = server) =>
    fetch(`${node.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
    });
  const answered = async (apiKey: string, node: TestServer = server) => {
    const response = await chat(apiKey, node);
    await response.arrayBuffer();
    return response.status;
  };
  /** Charges as the relay submits them, written by the settlement writer. */
  const charge = async (userId: number, tokenId: number, quota: number) => {
    relayRuntime(server.context).settlements.submit(testCharge(userId, tokenId, quota), null);
    await settled(server);
  };
  const manageLogs = async (userId: number) =>
    (
      await server.context.logDatabase.db
        .selectFrom('logs')
        .select('content')
        .where('user_id', '=', userId)
        .where('type', '=', LogType.Manage)
        .orderBy('id')
        .execute()
    ).map((log) => log.content);

  test('renaming a user with the quota the page loaded keeps the relayed charges', async () => {
    const user = await createTestUser(server, { quota: 1_000_000 });
    const token = await createToken(server, user.id);
    const apiKey = `sk-${token.key}`;
    const loaded = (await root.get(`/api/user/${user.id}`)).body.data as { quota: number; username: string };
    for (let call = 0; call < 3; call++) expect(await answered(apiKey)).toBe(200);
    const charged = 1_000_000 - (await balances(server, user.id, token.id)).userQuota;
    expect(charged).toBeGreaterThan(0);

    const renamed = await root.put('/api/user/', {
      ...loaded,
      display_name: 'renamed',
      original_quota: loaded.quota,
    });
    expect(renamed.body.success).toBe(true);
    expect(renamed.body.data.quota).toBe(1_000_000 - charged);
    expect((await balances(server, user.id, token.id)).userQuota).toBe(1_000_000 - charged);
    // Nothing moved, so nothing is logged.
    expect(await manageLogs(user.id)).toEqual([]);

    // A raise typed on the same stale page adds what was typed, not what the page lacked.
    const raised = await root.put('/api/user/', {
      ...loaded,
      quota: loaded.quota + 5000,
      original_quota: loaded.quota,
    });
    expect(raised.body.data.quota).toBe(1_000_000 - charged + 5000);
    expect(await manageLogs(user.id)).toEqual([
      `管理员将用户额度从 ＄${((1_000_000 - charged) / 500_000).toFixed(6)} 额度修改为 ＄${(
        (1_000_000 - charged + 5000) /
        500_000
      ).toFixed(6)} 额度（按编辑差额调整：编辑页载入时为 ＄2.000000 额度，保存为 ＄2.010000 额度）`,
    ]);
  });

  test('a debt run up after the page loaded is not wiped by a stale save', async () => {
    const user = await createTestUser(server, { quota: 20_000 });
    const token = await createToken(server, user.id, { unlimited_quota: false, remain_quota: 5_000_000 });
    const loaded = (await root.get(`/api/user/${user.id}`)).body.data as { quota: number };
    await charge(user.id, token.id, 4_224_200);
    expect((await balances(server, user.id, token.id)).userQuota).toBe(-4_204_200);

    const saved = await root.put('/api/user/', { ...loaded, display_name: 'debtor', original_quota: loaded.quota });
    expect(saved.body.success).toBe(true);
    expect((await balances(server, user.id, token.id)).userQuota).toBe(-4_204_200);
    // The page of a user in debt loads a negative quota and saves it back unchanged.
    const reloaded = (await root.get(`/api/user/${user.id}`)).body.data as { quota: number };
    expect(reloaded.quota).toBe(-4_204_200);
    expect((await root.put('/api/user/', { ...reloaded, original_quota: reloaded.quota })).body.success).toBe(true);
    expect((await balances(server, user.id, token.id)).userQuota).toBe(-4_204_200);
    // A negative quota without the loaded one would be an overwrite into debt: refused, as before.
    expect((await root.put('/api/user/', { id: user.id, quota: -1 })).body.success).toBe(false);
  });

  test('without original_quota the quota is overwritten, as one-api did, and the log says so', async () => {
    const user = await createTestUser(server, { quota: 30_000 });
    const token = await createToken(server, user.id);
    await charge(user.id, token.id, 10_000);
    const saved = await root.put('/api/user/', { id: user.id, quota: 30_000 });
    expect(saved.body.data.quota).toBe(30_000);
    expect(await manageLogs(user.id)).toEqual([
      '管理员将用户额度从 ＄0.040000 额度修改为 ＄0.060000 额度（直接覆盖：请求未带 original_quota）',
    ]);
  });

  test('the relay sees a relative edit at once: a debt paid off answers, a balance taken away refuses', async () => {
    const user = await createTestUser(server, { quota: 10_000 });
    const token = await createToken(server, user.id);
    const apiKey = `sk-${token.key}`;
    const loaded = (await root.get(`/api/user/${user.id}`)).body.data as { quota: number };
    await charge(user.id, token.id, 50_000);
    // The refusal reads (and caches) the user in debt.
    expect(await answered(apiKey)).toBe(403);
    await root.put('/api/user/', { ...loaded, quota: loaded.quota + 1_000_000, original_quota: loaded.quota });
    expect((await balances(server, user.id, token.id)).userQuota).toBe(960_000);
    expect(await answered(apiKey)).toBe(200);
    const now = (await root.get(`/api/user/${user.id}`)).body.data as { quota: number };
    await root.put('/api/user/', { ...now, quota: 0, original_quota: now.quota });
    expect((await balances(server, user.id, token.id)).userQuota).toBe(0);
    expect(await answered(apiKey)).toBe(403);
  });

  test("a token's remaining quota saved from a stale page keeps the charges made since", async () => {
    const user = await createTestUser(server, { quota: 10_000_000 });
    const created = await user.client.post('/api/token/', {
      name: 'stale',
      remain_quota: 100_000,
      unlimited_quota: false,
    });
    const loaded = created.body.data as { id: number; key: string; remain_quota: number };
    for (let call = 0; call < 2; call++) expect(await answered(`sk-${loaded.key}`)).toBe(200);
    const left = (await balances(server, user.id, loaded.id)).tokenRemain;
    expect(left).toBeLessThan(100_000);

    const renamed = await user.client.put('/api/token/', {
      ...loaded,
      name: 'renamed',
      original_remain_quota: loaded.remain_quota,
    });
    expect(renamed.body.data).toMatchObject({ name: 'renamed', remain_quota: left });
    const raised = await user.client.put('/api/token/', {
      ...loaded,
      remain_quota: loaded.remain_quota + 7,
      original_remain_quota: loaded.remain_quota,
    });
    expect(raised.body.data.remain_quota).toBe(left + 7);
    // Without the loaded value the stored one is overwritten, as one-api did.
    const overwritten = await user.client.put('/api/token/', { id: loaded.id, remain_quota: 100_000 });
    expect(overwritten.body.data.remain_quota).toBe(100_000);
  });

  test('a token exhausted after its page loaded is still refused after a stale save', async () => {
    const user = await createTestUser(server, { quota: 10_000_000 });
    const token = await createToken(server, user.id, { unlimited_quota: false, remain_quota: 30_000 });
    const loaded = (await user.client.get(`/api/token/${token.id}`)).body.data as { remain_quota: number };
    await charge(user.id, token.id, 40_000);
    const saved = await user.client.put('/api/token/', { ...loaded, name: 'x', original_remain_quota: 30_000 });
    expect(saved.body.data.remain_quota).toBe(-10_000);
    expect(await answered(`sk-${(saved.body.data as { key: string }).key}`)).not.toBe(200);
    // Its page now loads a negative remaining quota, which saves back unchanged.
    const reloaded = (await user.client.get(`/api/token/${token.id}`)).body.data as { remain_quota: number };
    const again = await user.client.put('/api/token/', { ...reloaded, original_remain_quota: reloaded.remain_quota });
    expect(again.body.data.remain_quota).toBe(-10_000);
    expect((await user.client.put('/api/token/', { id: token.id, remain_quota: -5 })).body.success).toBe(false);
  });
});

// Two nodes need a database and a cache both can reach: PostgreSQL with Redis.
const sharedEngines = engines.filter((engine) => engine.name === 'postgres' && engine.redis);

describe.skipIf(sharedEngines.length === 0).each(sharedEngines)('a relative edit on two nodes of $label', (engine) => {
  let nodeA: TestServer;
  let nodeB: TestServer;
  let upstream: MockOpenAIUpstream;
  beforeAll(async () => {
    nodeA = await startTestServer({ engine });
    nodeB = await startTestServer({ engine, shareDatabaseWith: nodeA });
    upstream = await MockOpenAIUpstream.start();
    await createChannel(nodeA, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
    await relayRuntime(nodeB.context).router.reload();
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
    await upstream?.close();
  });

  test('an edit saved on node A is what node B charges against on its next call', async () => {
    const user = await createTestUser(nodeA, { quota: 1_000_000 });
    const token = await createToken(nodeA, user.id);
    const call = async (node: TestServer) => {
      const response = await fetch(`${node.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
      });
      await response.arrayBuffer();
      return response.status;
    };
    const rootOnA = await nodeA.rootClient();
    const loaded = (await rootOnA.get(`/api/user/${user.id}`)).body.data as { quota: number };
    // Node B charges (and caches the user) after node A's page loaded.
    expect(await call(nodeB)).toBe(200);
    await settled(nodeB);
    await rootOnA.put('/api/user/', { ...loaded, quota: 0, original_quota: loaded.quota });
    const left = (await balances(nodeA, user.id, token.id)).userQuota;
    expect(left).toBeLessThan(0);
    expect(await call(nodeB)).toBe(403);
    await rootOnA.put('/api/user/', { ...loaded, quota: loaded.quota + 1_000_000, original_quota: loaded.quota });
    expect((await balances(nodeA, user.id, token.id)).userQuota).toBe(left + 1_000_000);
    expect(await call(nodeB)).toBe(200);
  });
});
