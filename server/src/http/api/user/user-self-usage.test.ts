import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../../test/mock-openai-upstream.js';
import { createChannel, createToken, settled } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../../test/test-users.js';
import { LogType } from '../../../domain/log/log.constants.js';

interface Usage {
  quota: number;
  used_quota: number;
  request_count: number;
}

const usageOf = ({ quota, used_quota, request_count }: Usage): Usage => ({ quota, used_quota, request_count });

describe.each(await availableEngines())('the usage /api shows right after a relay call on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let root: ApiClient;
  let user: TestUser;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start();
    root = await server.rootClient();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
    user = await createTestUser(server, { quota: 50_000_000 });
    apiKey = `sk-${(await createToken(server, user.id)).key}`;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const chat = (node: TestServer = server) =>
    fetch(`${node.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
    });

  const self = async (): Promise<Usage> => {
    const response = await user.client.get('/api/user/self');
    expect(response.body.success).toBe(true);
    return usageOf(response.body.data as Usage);
  };

  test('/api/user/self, the admin user page and the user list count a call as soon as it is answered', async () => {
    // Read first, so the cached user row (kept for the relay's checks) exists before any charge.
    let before = await self();
    expect(before).toEqual({ quota: 50_000_000, used_quota: 0, request_count: 0 });
    for (let round = 1; round <= 5; round++) {
      const answer = await chat();
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      const after = await self();

      const logs = await user.client.get(`/api/log/self/?type=${LogType.Consume}`);
      // Newest first: the first is this round's charge.
      const charges = (logs.body.data as { quota: number }[]).map((log) => log.quota);
      expect(charges, `round ${round}`).toHaveLength(round);
      const charge = charges[0]!;
      expect(charge).toBeGreaterThan(0);
      expect(after, `round ${round}`).toEqual({
        quota: before.quota - charge,
        used_quota: before.used_quota + charge,
        request_count: before.request_count + 1,
      });
      expect(after.used_quota).toBe(charges.reduce((sum, quota) => sum + quota, 0));

      const edited = await root.get(`/api/user/${user.id}`);
      expect(usageOf(edited.body.data as Usage), `round ${round}: edit page`).toEqual(after);
      const list = await root.get('/api/user/?p=0');
      const listed = (list.body.data as (Usage & { id: number })[]).find((entry) => entry.id === user.id);
      expect(listed && usageOf(listed), `round ${round}: list`).toEqual(after);
      before = after;
    }
  });

  test('a charge written by another node shows at once once it is in the database', async () => {
    const other = await startTestServer({ engine, shareDatabaseWith: server });
    try {
      const before = await self();
      const answer = await chat(other);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
      await settled(other);
      const logs = await user.client.get(`/api/log/self/?type=${LogType.Consume}`);
      const charge = (logs.body.data as { quota: number }[])[0]!.quota;
      expect(charge).toBeGreaterThan(0);
      // This node's cached row has not seen the charge: the answer must come from the database.
      const after = await self();
      expect(after).toEqual({
        quota: before.quota - charge,
        used_quota: before.used_quota + charge,
        request_count: before.request_count + 1,
      });
      expect(usageOf((await root.get(`/api/user/${user.id}`)).body.data as Usage)).toEqual(after);
    } finally {
      await other.close();
    }
  });
});
