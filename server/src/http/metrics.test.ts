import OpenAI from 'openai';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../test/engines.js';
import { MockOpenAIUpstream } from '../../test/mock-openai-upstream.js';
import { parseExposition, valueOf, type Sample } from '../../test/metrics-exposition.js';
import { createChannel, createToken, createUser, settled } from '../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

const metricsToken = 'metrics-test-token-0123456789';

async function scrape(server: TestServer): Promise<Sample[]> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}

describe.each(await availableEngines())('/metrics on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let channelId: number;
  let client: OpenAI;
  const model = 'gpt-4o-mini';
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { METRICS_TOKEN: metricsToken } });
    upstream = await MockOpenAIUpstream.start();
    channelId = (await createChannel(server, { base_url: upstream.url, models: model })).id;
    const userId = await createUser(server, { username: 'metered', quota: 1_000_000_000 });
    const token = await createToken(server, userId);
    client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const series = () => ({ model, channel: String(channelId) });

  async function consumeLogSums() {
    await settled(server);
    const row = await server.context.logDatabase.db
      .selectFrom('logs')
      .select([
        sql<number>`count(*)`.as('calls'),
        sql<number>`coalesce(sum(prompt_tokens), 0)`.as('prompt'),
        sql<number>`coalesce(sum(completion_tokens), 0)`.as('completion'),
        sql<number>`coalesce(sum(quota), 0)`.as('quota'),
      ])
      .where('type', '=', 2)
      .where('channel_id', '=', channelId)
      .where('model_name', '=', model)
      .executeTakeFirstOrThrow();
    return {
      calls: Number(row.calls),
      prompt: Number(row.prompt),
      completion: Number(row.completion),
      quota: Number(row.quota),
    };
  }

  test('is refused without the token, and with a wrong one', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('modelgate_');
    const bare = await fetch(`${server.url}/metrics`, { headers: { authorization: metricsToken } });
    expect(bare.status).toBe(401);
  });

  test('counts plain and streamed calls, with the tokens and quota the consume logs record', async () => {
    upstream.reset();
    const before = await scrape(server);
    const logsBefore = await consumeLogSums();
    const plainCalls = 4;
    const streamedCalls = 3;
    for (let index = 0; index < plainCalls; index++) {
      const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
      expect(completion.choices[0]?.message.content).toBeTruthy();
    }
    for (let index = 0; index < streamedCalls; index++) {
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'stream' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).not.toBe('');
    }
    const calls = plainCalls + streamedCalls;
    const logsAfter = await consumeLogSums();
    const after = await scrape(server);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, { ...series(), ...labels }) - valueOf(before, name, { ...series(), ...labels });

    expect(logsAfter.calls - logsBefore.calls).toBe(calls);
    expect(delta('modelgate_relay_attempts_total', { status_class: '2xx' })).toBe(calls);
    expect(delta('modelgate_relay_attempts_total')).toBe(calls);
    expect(delta('modelgate_relay_errors_total')).toBe(0);
    expect(delta('modelgate_relay_attempt_duration_seconds_count')).toBe(calls);
    expect(delta('modelgate_relay_attempt_duration_seconds_bucket', { le: '+Inf' })).toBe(calls);
    expect(delta('modelgate_relay_attempt_duration_seconds_bucket', { le: '120' })).toBe(calls);
    expect(delta('modelgate_relay_attempt_duration_seconds_sum')).toBeGreaterThan(0);
    expect(delta('modelgate_relay_tokens_total', { type: 'prompt' })).toBe(logsAfter.prompt - logsBefore.prompt);
    expect(delta('modelgate_relay_tokens_total', { type: 'completion' })).toBe(
      logsAfter.completion - logsBefore.completion,
    );
    expect(logsAfter.completion - logsBefore.completion).toBeGreaterThan(0);
    expect(delta('modelgate_relay_quota_charged_total')).toBe(logsAfter.quota - logsBefore.quota);
    expect(logsAfter.quota - logsBefore.quota).toBeGreaterThan(0);
    expect(valueOf(after, 'modelgate_cache_entries', { cache: 'tokens', kind: 'rows' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'modelgate_routing_channels')).toBe(1);
    expect(after.some((sample) => sample.name === 'modelgate_settlement_pending_logs')).toBe(true);
  });

  test('an upstream error counts as an error with its status, and is not timed', async () => {
    upstream.set({ failure: { status: 500 } });
    const before = await scrape(server);
    await expect(
      client.chat.completions.create({ model, messages: [{ role: 'user', content: 'fail' }] }),
    ).rejects.toMatchObject({ status: 500 });
    upstream.reset();
    const after = await scrape(server);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, { ...series(), ...labels }) - valueOf(before, name, { ...series(), ...labels });
    expect(delta('modelgate_relay_attempts_total', { status_class: '5xx' })).toBe(1);
    expect(delta('modelgate_relay_attempts_total', { status_class: '2xx' })).toBe(0);
    expect(delta('modelgate_relay_errors_total', { status: '500' })).toBe(1);
    expect(delta('modelgate_relay_attempt_duration_seconds_count')).toBe(0);
    expect(delta('modelgate_relay_tokens_total')).toBe(0);
  });

  test('shows a call in flight as an open reservation, and none once it is answered', async () => {
    upstream.set({ latencyMs: 400 });
    const call = client.chat.completions.create({ model, messages: [{ role: 'user', content: 'slow' }] });
    let during: Sample[] = [];
    // Bounded: the call holds its quota from before the upstream request until the answer (400 ms).
    for (let poll = 0; poll < 40; poll++) {
      during = await scrape(server);
      if (valueOf(during, 'modelgate_reservations_open') > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(valueOf(during, 'modelgate_reservations_open')).toBe(1);
    await call;
    upstream.reset();
    await settled(server);
    expect(valueOf(await scrape(server), 'modelgate_reservations_open')).toBe(0);
  });

  test("Node's default metrics and the database pool are exported", async () => {
    const samples = await scrape(server);
    const names = new Set(samples.map((sample) => sample.name));
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
    ])
      expect(names).toContain(name);
    if (engine.name === 'sqlite') {
      expect(names).not.toContain('modelgate_db_pool_open_connections');
    } else {
      expect(valueOf(samples, 'modelgate_db_pool_open_connections', { database: 'main' })).toBeGreaterThanOrEqual(1);
      expect(names).toContain('modelgate_db_pool_idle_connections');
      expect(names).toContain('modelgate_db_pool_waiting_queries');
    }
  });

  test.runIf(engine.name === 'sqlite')(
    'another server in the same process has a registry of its own; without METRICS_TOKEN, /metrics is 404',
    async () => {
      const other = await startTestServer({ engine, env: { METRICS_TOKEN: metricsToken } });
      const off = await startTestServer({ engine });
      try {
        const otherUpstream = await MockOpenAIUpstream.start();
        try {
          const otherChannel = (await createChannel(other, { base_url: otherUpstream.url, models: model })).id;
          const userId = await createUser(other, { username: 'other', quota: 1_000_000_000 });
          const token = await createToken(other, userId);
          const otherClient = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${other.url}/v1`, maxRetries: 0 });
          const ours = await scrape(server);
          await otherClient.chat.completions.create({ model, messages: [{ role: 'user', content: 'elsewhere' }] });
          const labels = { model, channel: String(otherChannel), status_class: '2xx' };
          expect(valueOf(await scrape(other), 'modelgate_relay_attempts_total', labels)).toBe(1);
          // Both servers' channels have the id 1 (each has its own database): ours did not move.
          const oursAfter = await scrape(server);
          expect(valueOf(oursAfter, 'modelgate_relay_attempts_total', labels)).toBe(
            valueOf(ours, 'modelgate_relay_attempts_total', labels),
          );
        } finally {
          await otherUpstream.close();
        }
        const disabled = await fetch(`${off.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
        expect(disabled.status).toBe(404);
        expect(await disabled.text()).not.toContain('<html');
        expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
      } finally {
        await other.close();
        await off.close();
      }
    },
  );
});
