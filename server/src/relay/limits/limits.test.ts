import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { FaultUpstream } from '../../../test/fault-upstream.js';
import { createChannel, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { createTestUser, type TestUser } from '../../../test/test-users.js';
import { waitFor } from '../../../test/wait-for.js';
import { call, chargesOf, limitedToken, moveClockTo } from '../../../test/limits-kit.js';

/**
 * Issue 31 on one node without Redis (SQLite): limits are set and checked through the API, counted in
 * memory, and answered in each front's dialect.
 */
describe('limits on one node (SQLite, in memory)', () => {
  let server: TestServer;
  let upstream: FaultUpstream;
  let root: TestUser;
  let owner: TestUser;

  beforeAll(async () => {
    upstream = await FaultUpstream.start();
    server = await startTestServer();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
    root = await createTestUser(server, { role: 100 });
    owner = await createTestUser(server, { quota: 100_000_000 });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const newToken = async (limits: Record<string, number | string> = {}) => {
    const created = await owner.client.post('/api/token/', { name: 'limited', unlimited_quota: true, ...limits });
    expect(created.body).toMatchObject({ success: true, data: limits });
    return created.body.data as { id: number; key: string };
  };

  const openai = (key: string) =>
    new OpenAI({ apiKey: `sk-${key}`, baseURL: `${server.url}/v1`, maxRetries: 0, timeout: 30_000 });

  const chat = async (key: string) => {
    try {
      const { response } = await openai(key)
        .chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'fault:ok' }] })
        .withResponse();
      return { status: response.status, headers: response.headers };
    } catch (error) {
      if (!(error instanceof OpenAI.APIError)) throw error;
      return { status: error.status ?? 0, headers: error.headers as Headers, error: error.error };
    }
  };

  test('limits are refused with a clear message when invalid, above the user’s, or a budget lacks its period', async () => {
    const token = await newToken();
    const put = (fields: Record<string, unknown>) => owner.client.put('/api/token/', { id: token.id, ...fields });
    expect((await put({ rpm_limit: -1 })).body).toMatchObject({
      success: false,
      message: expect.stringContaining('rpm_limit'),
    });
    expect((await put({ tpm_limit: 1.5 })).body).toMatchObject({
      success: false,
      message: expect.stringContaining('tpm_limit'),
    });
    expect((await put({ budget_period: 'year' })).body).toMatchObject({ success: false });
    expect((await put({ budget_quota: 1000 })).body).toMatchObject({
      success: false,
      message: expect.stringContaining('budget_period'),
    });
    // The owner's limit caps the token's.
    expect((await root.client.put('/api/user/', { id: owner.id, concurrency_limit: 5 })).body).toMatchObject({
      success: true,
      data: { concurrency_limit: 5 },
    });
    onTestFinished(async () => void (await root.client.put('/api/user/', { id: owner.id, concurrency_limit: 0 })));
    expect((await put({ concurrency_limit: 6 })).body).toMatchObject({
      success: false,
      message: expect.stringContaining('concurrency_limit'),
    });
    expect((await put({ concurrency_limit: 5, budget_quota: 1000, budget_period: 'week' })).body).toMatchObject({
      success: true,
      data: { concurrency_limit: 5, budget_quota: 1000, budget_period: 'week' },
    });
    // Only admins set users' limits.
    expect((await owner.client.put('/api/user/', { id: owner.id, rpm_limit: 1000 })).body.success).toBe(false);
    // Group defaults are checked as JSON of limits; the time zone as an IANA name.
    const option = (key: string, value: string) => root.client.put('/api/option/', { key, value });
    expect((await option('GroupLimits', '{"default":{"rpm_limit":-2}}')).body).toMatchObject({
      success: false,
      message: expect.stringContaining('default.rpm_limit'),
    });
    expect((await option('GroupLimits', '{"default":{"models":{"gpt-4o":{"tpm":5}}}}')).body.success).toBe(false);
    expect((await option('TimeZone', 'Mars/Olympus')).body.success).toBe(false);
    expect((await option('TimeZone', 'Asia/Shanghai')).body.success).toBe(true);
    onTestFinished(async () => void (await option('TimeZone', 'UTC')));
  });

  test('rpm_limit 3 in memory: 3 of 5 calls, the others 429 rate_limit_error with Retry-After and headers', async () => {
    const { key } = await newToken({ rpm_limit: 3 });
    const outcomes = [];
    for (let index = 0; index < 5; index++) outcomes.push(await chat(key));
    expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200, 200, 429, 429]);
    expect(outcomes.map((outcome) => outcome.headers.get('x-ratelimit-remaining-requests'))).toEqual([
      '2',
      '1',
      '0',
      null,
      null,
    ]);
    expect(outcomes[3]!.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(Number(outcomes[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    const status = await (await fetch(`${server.url}/api/status`)).json();
    expect(status.data.limits).toEqual({ mode: 'node', nodes: 1 });
  });

  test('/v1/messages answers anthropic-ratelimit-* headers and a 429 rate_limit_error; Gemini RESOURCE_EXHAUSTED', async () => {
    const { key } = await newToken({ rpm_limit: 1, tpm_limit: 100_000 });
    const anthropic = new Anthropic({ apiKey: `sk-${key}`, baseURL: server.url, maxRetries: 0 });
    const request = {
      model: 'gpt-3.5-turbo',
      max_tokens: 100,
      messages: [{ role: 'user' as const, content: 'fault:ok' }],
    };
    const { response } = await anthropic.messages.create(request).withResponse();
    expect(response.headers.get('anthropic-ratelimit-requests-limit')).toBe('1');
    expect(response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(Date.parse(response.headers.get('anthropic-ratelimit-requests-reset')!)).toBeGreaterThan(Date.now());
    expect(response.headers.get('anthropic-ratelimit-tokens-limit')).toBe('100000');
    expect(response.headers.get('x-ratelimit-limit-requests')).toBeNull();
    const refused = await anthropic.messages.create(request).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
    expect((refused as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error' },
    });
    expect(
      Number((refused as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after')),
    ).toBeGreaterThan(0);
    const gemini = await fetch(`${server.url}/v1beta/models/gpt-3.5-turbo:generateContent?key=sk-${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'fault:ok' }] }] }),
    });
    expect(gemini.status).toBe(429);
    expect(Number(gemini.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await gemini.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
  });

  test('a call the client leaves gives its concurrency slot back', async () => {
    const { key } = await newToken({ concurrency_limit: 1 });
    const stream = await openai(key).chat.completions.create({
      model: 'gpt-3.5-turbo',
      messages: [{ role: 'user', content: 'fault:slow' }],
      stream: true,
    });
    // The only slot is taken while the stream runs, and comes back once the client is gone.
    for await (const chunk of stream) {
      void chunk;
      expect((await chat(key)).status).toBe(429);
      break;
    }
    await waitFor('the slot to come back', async () => (await chat(key)).status === 200);
  });

  test("the group's per-model default applies to a user without limits of their own", async () => {
    const option = await root.client.put('/api/option/', {
      key: 'GroupLimits',
      value: JSON.stringify({ default: { models: { 'gpt-3.5-turbo': { rpm_limit: 2 } } } }),
    });
    expect(option.body.success).toBe(true);
    onTestFinished(async () => void (await root.client.put('/api/option/', { key: 'GroupLimits', value: '{}' })));
    const { key } = await newToken();
    const outcomes = [];
    for (let index = 0; index < 3; index++) outcomes.push((await chat(key)).status);
    expect(outcomes).toEqual([200, 200, 429]);
  });

  test('a daily budget counts each call’s hold, stops at its cap and opens at midnight in the operator’s zone (moved clock)', async () => {
    expect((await root.client.put('/api/option/', { key: 'TimeZone', value: 'Asia/Shanghai' })).body.success).toBe(
      true,
    );
    onTestFinished(async () => void (await root.client.put('/api/option/', { key: 'TimeZone', value: 'UTC' })));
    // 23:58 in Shanghai (UTC+8).
    moveClockTo('2026-11-29T15:58:00Z');
    // max_tokens 64: a hold no cut can shrink (a cut keeps at least 64 output tokens).
    const probe = await limitedToken(owner);
    expect((await call(server, probe.key, 'ok', { maxTokens: 64 })).status).toBe(200);
    await settled(server);
    const [probeCharge] = await chargesOf(server, probe.name);
    const { held, quota: cost } = probeCharge!;
    expect(cost).toBeGreaterThan(0);
    expect(held).toBeGreaterThan(cost);
    // Room for two charges and a third call's hold: the fourth call's hold no longer fits, though the
    // spend (three charges) is below the cap.
    const token = await limitedToken(owner, { budget_quota: held + 2 * cost, budget_period: 'day' });
    const outcomes = [];
    for (let index = 0; index < 4; index++) {
      outcomes.push(await call(server, token.key, 'ok', { maxTokens: 64 }));
      await settled(server);
    }
    expect(outcomes.map((outcome) => outcome.status)).toEqual([200, 200, 200, 429]);
    expect(outcomes[3]!.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    const wait = Number(outcomes[3]!.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(60);
    expect(wait).toBeLessThanOrEqual(120);
    expect((await chargesOf(server, token.name)).map((charge) => charge.quota)).toEqual([cost, cost, cost]);
    // 00:00:30 the next day in Shanghai: a new period.
    moveClockTo('2026-11-29T16:00:30Z');
    expect((await call(server, token.key, 'ok', { maxTokens: 64 })).status).toBe(200);
  });
});
