import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../../test/mock-openai-upstream.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { flushRelayStats } from '../../../domain/relay-stats/relay-stats.service.js';

describe.each(await availableEngines())('relay outcomes reach the service status on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let key = '';

  beforeAll(async () => {
    upstream = await MockOpenAIUpstream.start();
    server = await startTestServer({ engine });
    const root = await server.rootClient();
    await root.post('/api/channel/', {
      name: 'mock',
      type: 1,
      key: 'sk-up',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    const token = await root.post('/api/token/', {
      name: 'status',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    key = token.body.data.key as string;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const call = () =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });

  test('each relay attempt is counted once, successes with their latency', async () => {
    // The router learns about the new channel through the cache bus; wait for it to serve.
    await expect.poll(async () => (await call()).status, { timeout: 10_000, interval: 200 }).toBe(200);
    await flushRelayStats(server.context);
    await server.context.database.db.deleteFrom('relay_outcomes').execute();
    expect((await call()).status).toBe(200);
    upstream.set({ failure: { status: 500, error: { message: 'upstream broke' } } });
    expect((await call()).status).toBe(500);
    upstream.reset();
    await flushRelayStats(server.context);
    const root = await server.rootClient();
    const report = (await root.get('/api/status/models')).body.data;
    const model = report.models.find((entry: { model: string }) => entry.model === 'gpt-4o-mini');
    expect(model.last_hour).toMatchObject({ requests: 2, success_rate: 0.5 });
    // A local upstream answers within 250 ms: the median is one of the fine buckets, never a midpoint.
    expect(model.last_hour.median_latency.at_most_ms).toBeLessThanOrEqual(250);
    expect(report.channels[0].last_hour.requests).toBe(2);
  });
});
