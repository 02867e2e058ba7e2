import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { createToken, createUser, priceUnknownModels } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { insertReturningId } from '../../db/insert-id.js';
import { nowSeconds } from '../../lib/time.js';

const withRedis = (await availableEngines()).filter((engine) => engine.redis);

describe.runIf(withRedis.length > 0).each(withRedis)('two nodes sharing $label', (engine) => {
  let first: TestServer;
  let second: TestServer;
  let upstream: MockOpenAIUpstream;
  beforeAll(async () => {
    first = await startTestServer({ engine });
    second = await startTestServer({ engine, shareDatabaseWith: first });
    await priceUnknownModels(first);
    await priceUnknownModels(second);
    upstream = await MockOpenAIUpstream.start();
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await upstream?.close();
  });

  test('a channel change announced on one node reroutes the other through Redis', async () => {
    const userId = await createUser(first, { username: 'twonodes', quota: 10_000_000 });
    const { key } = await createToken(first, userId);
    const viaSecond = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${second.url}/v1`, maxRetries: 0 });
    const ask = () =>
      viaSecond.chat.completions.create({ model: 'node-model', messages: [{ role: 'user', content: 'hi' }] });
    await expect(ask()).rejects.toMatchObject({ status: 404 });

    const id = await insertReturningId(first.context.database.db, 'channels', {
      type: 1,
      key: 'sk-upstream-key',
      name: 'shared',
      created_time: nowSeconds(),
      models: 'node-model',
      base_url: upstream.url,
      config: '{}',
    });
    await first.context.bus.publish('channels', id);
    await expect
      .poll(async () => ((await ask().catch((error: unknown) => error)) as { choices?: unknown[] }).choices?.length, {
        timeout: 5000,
      })
      .toBe(1);

    await first.context.database.db.updateTable('channels').set({ status: 2 }).where('id', '=', id).execute();
    await first.context.bus.publish('channels', id);
    await expect
      .poll(async () => ((await ask().catch((error: unknown) => error)) as { status?: number }).status, {
        timeout: 5000,
      })
      .toBe(404);
  });
});
