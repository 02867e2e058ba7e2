import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../../test/engines.js';
import { startTestServer, type TestServer } from '../../../../test/test-server.js';
import { flushRelayStats, recordRelayOutcome } from '../../../domain/relay-stats/relay-stats.service.js';
import { createTestUser } from '../../../../test/test-users.js';

describe.each(await availableEngines())('service status on $label', (engine) => {
  let server: TestServer;
  let release: Server;
  let servedId = 0;
  let offId = 0;

  beforeAll(async () => {
    release = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ tag_name: 'v9.9.9', body: '## notes' }));
    });
    await new Promise<void>((resolve) => release.listen(0, '127.0.0.1', resolve));
    const { port } = release.address() as AddressInfo;
    server = await startTestServer({ engine, env: { UPDATE_CHECK_URL: `http://127.0.0.1:${port}/latest` } });
    const root = await server.rootClient();
    await root.post('/api/channel/', {
      name: 'served',
      type: 1,
      key: 'sk-secret-a',
      models: 'gpt-4o-mini,model-b',
      group: 'default',
    });
    await root.post('/api/channel/', {
      name: 'off',
      type: 1,
      key: 'sk-secret-b',
      models: 'model-off',
      group: 'default',
    });
    const channels = (await root.get('/api/channel/?p=0')).body.data as Array<{ id: number; name: string }>;
    servedId = channels.find((channel) => channel.name === 'served')?.id ?? 0;
    offId = channels.find((channel) => channel.name === 'off')?.id ?? 0;
    await root.put('/api/channel/', { id: offId, status: 2 });
  });
  afterAll(async () => {
    await server?.close();
    release?.close();
  });

  test('users see the models of their group with availability and windows, without channels', async () => {
    for (const elapsedMs of [400, 450, 480])
      recordRelayOutcome(server.context, { model: 'gpt-4o-mini', channelId: servedId, success: true, elapsedMs });
    recordRelayOutcome(server.context, { model: 'gpt-4o-mini', channelId: servedId, success: false, elapsedMs: 2000 });
    expect(await flushRelayStats(server.context)).toBe(1);
    // A second flush into the same minute adds to the stored row.
    recordRelayOutcome(server.context, { model: 'gpt-4o-mini', channelId: servedId, success: true, elapsedMs: 300 });
    await flushRelayStats(server.context);

    const user = await createTestUser(server);
    const answer = await user.client.get('/api/status/models');
    expect(answer.body.success).toBe(true);
    expect(answer.body.data.channels).toBeUndefined();
    const models = answer.body.data.models as Array<{
      model: string;
      available: boolean;
      last_hour: Record<string, unknown>;
      last_day: Record<string, unknown>;
    }>;
    expect(models.map((model) => model.model)).toEqual(['gpt-4o-mini', 'model-b', 'model-off']);
    expect(models.find((model) => model.model === 'model-off')?.available).toBe(false);
    const served = models.find((model) => model.model === 'gpt-4o-mini');
    expect(served?.available).toBe(true);
    expect(served?.last_hour).toEqual({
      requests: 5,
      success_rate: 0.8,
      median_latency: { above_ms: 250, at_most_ms: 500 },
    });
    expect(models.find((model) => model.model === 'model-b')?.last_day).toEqual({
      requests: 0,
      success_rate: null,
      median_latency: null,
    });
    expect(JSON.stringify(answer.body)).not.toContain('sk-secret');
  });

  test('admins also see every channel, and nothing secret', async () => {
    const root = await server.rootClient();
    const answer = await root.get('/api/status/models');
    const channels = answer.body.data.channels as Array<{
      channel_id: number;
      status: number;
      last_day: { requests: number };
    }>;
    expect(channels.find((channel) => channel.channel_id === servedId)?.last_day.requests).toBe(5);
    expect(channels.find((channel) => channel.channel_id === offId)).toMatchObject({
      status: 2,
      last_day: { requests: 0 },
    });
    expect(JSON.stringify(answer.body)).not.toContain('sk-secret');
  });

  test('anonymous callers are refused', async () => {
    expect((await server.client().get('/api/status/models')).status).toBe(401);
  });

  test('outcomes still in memory are written by the shutdown tasks', async () => {
    recordRelayOutcome(server.context, { model: 'model-b', channelId: servedId, success: true, elapsedMs: 100 });
    for (const task of server.context.shutdownTasks) await task();
    const user = await createTestUser(server);
    const models = (await user.client.get('/api/status/models')).body.data.models as Array<{
      model: string;
      last_hour: { requests: number };
    }>;
    expect(models.find((model) => model.model === 'model-b')?.last_hour.requests).toBe(1);
  });

  test('the update check reads the configured release address (admins only)', async () => {
    const root = await server.rootClient();
    expect((await root.get('/api/status/latest_release')).body.data).toEqual({ tag_name: 'v9.9.9', body: '## notes' });
    const user = await createTestUser(server);
    expect((await user.client.get('/api/status/latest_release')).body.success).toBe(false);
  });
});
