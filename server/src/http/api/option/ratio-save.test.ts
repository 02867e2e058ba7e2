import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiClient } from '../../../../test/api-client.js';
import { availableEngines } from '../../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../../test/mock-openai-upstream.js';
import { balances, createChannel, createToken } from '../../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { createTestUser } from '../../../../test/test-users.js';

interface Entry {
  key: string;
  value: string;
  built_in?: string;
}

/** Issue 29, point 4: saving the ratio section must not store one-api's built-in table as the admin's own. */
describe.each(await availableEngines())('the ratio section saved on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let root: ApiClient;
  let apiKey: string;
  let member: { userId: number; tokenId: number };
  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start();
    root = await server.rootClient();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-4o' });
    const user = await createTestUser(server, { quota: 100_000_000 });
    const token = await createToken(server, user.id);
    apiKey = `sk-${token.key}`;
    member = { userId: user.id, tokenId: token.id };
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  /** What one gpt-4o call is charged. */
  const gpt4oCharge = async () => {
    const before = (await balances(server, member.userId, member.tokenId)).userQuota;
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    return before - (await balances(server, member.userId, member.tokenId)).userQuota;
  };
  const loadOptions = async () => {
    const listed = await root.get('/api/option/');
    expect(listed.body.success).toBe(true);
    return new Map((listed.body.data as Entry[]).map((entry) => [entry.key, entry]));
  };
  /** The console's text of a JSON option (pretty-printed), as it showed and re-sent it. */
  const asShown = (value: string) => (value ? JSON.stringify(JSON.parse(value), null, 2) : '');

  test('a fresh install lists no stored ratio table, and saving the section as loaded leaves gpt-4o at its price', async () => {
    const price = await gpt4oCharge();
    const loaded = await loadOptions();
    const modelRatio = loaded.get('ModelRatio')!;
    expect(modelRatio.value).toBe('');
    expect(Object.keys(JSON.parse(modelRatio.built_in!) as object).length).toBeGreaterThan(200);
    expect(loaded.get('CompletionRatio')!.value).toBe('');
    for (const key of ['ModelRatio', 'CompletionRatio', 'GroupRatio', 'WebSearchPrice']) {
      const value = loaded.get(key)!.value;
      const saved = await root.put('/api/option/', { key, value: key === 'WebSearchPrice' ? value : asShown(value) });
      expect(saved.body.success, key).toBe(true);
    }
    expect(await gpt4oCharge()).toBe(price);
    // one-api's console re-sends the whole table it was shown: still nothing of the admin's.
    const wholeTable = asShown(modelRatio.built_in!);
    expect(
      (await root.post('/api/option/preview', { options: [{ key: 'ModelRatio', value: wholeTable }] })).body,
    ).toEqual({
      success: true,
      message: '',
      data: { changes: [] },
    });
    expect((await root.put('/api/option/', { key: 'ModelRatio', value: wholeTable })).body.success).toBe(true);
    expect((await loadOptions()).get('ModelRatio')!.value).toBe('');
    expect(await gpt4oCharge()).toBe(price);
    const rows = await server.context.database.db
      .selectFrom('options')
      .select('key')
      .where('key', 'in', ['ModelRatio', 'CompletionRatio'])
      .execute();
    expect(rows).toEqual([]);
  });

  test('a save that re-prices a model is previewed first, before → after as a call pays, and can be undone', async () => {
    const price = await gpt4oCharge();
    const value = JSON.stringify({ 'gpt-4o': 2.5 });
    const preview = await root.post('/api/option/preview', { options: [{ key: 'ModelRatio', value }] });
    expect(preview.body.success).toBe(true);
    const changes = preview.body.data.changes as {
      model: string;
      channel_type: number | null;
      before: unknown;
      after: unknown;
    }[];
    // Served on an OpenAI channel (type 1), and named by the table without a type.
    expect(changes.filter((change) => change.model === 'gpt-4o')).toEqual([
      {
        model: 'gpt-4o',
        channel_type: null,
        group: '',
        before: { source: 'catalogue', input: 2.5, output: 10 },
        after: { source: 'ratio', input: 5, output: 20 },
      },
      {
        model: 'gpt-4o',
        channel_type: 1,
        group: '',
        before: { source: 'catalogue', input: 2.5, output: 10 },
        after: { source: 'ratio', input: 5, output: 20 },
      },
    ]);
    expect(changes).toHaveLength(2);
    // The preview saved nothing.
    expect(await gpt4oCharge()).toBe(price);

    expect((await root.put('/api/option/', { key: 'ModelRatio', value })).body.success).toBe(true);
    expect((await loadOptions()).get('ModelRatio')!.value).toBe(value);
    const ratioPrice = await gpt4oCharge();
    expect(ratioPrice).toBeGreaterThan(price);
    const back = await root.post('/api/option/preview', { options: [{ key: 'ModelRatio', value: '' }] });
    expect(back.body.data.changes.map((change: { after: { source: string } }) => change.after.source)).toEqual([
      'catalogue',
      'catalogue',
    ]);
    expect((await root.put('/api/option/', { key: 'ModelRatio', value: '' })).body.success).toBe(true);
    expect(await gpt4oCharge()).toBe(price);
  });

  test('a table cleared by another node is cleared here at the next reload', async () => {
    const value = JSON.stringify({ 'gpt-4o': 3 });
    expect((await root.put('/api/option/', { key: 'ModelRatio', value })).body.success).toBe(true);
    await server.context.database.db.deleteFrom('options').where('key', '=', 'ModelRatio').execute();
    await server.context.options.reload(server.context.database.db);
    expect((await loadOptions()).get('ModelRatio')!.value).toBe('');
  });

  test('a preview checks values as a save does', async () => {
    const bad = await root.post('/api/option/preview', { options: [{ key: 'ModelRatio', value: '{not json' }] });
    expect(bad.body).toEqual({ success: false, message: '模型倍率不是合法的 JSON 字符串' });
    expect((await root.post('/api/option/preview', { options: [] })).body.success).toBe(false);
    expect(
      (await server.client().post('/api/option/preview', { options: [{ key: 'ModelRatio', value: '' }] })).status,
    ).toBe(401);
  });
});
