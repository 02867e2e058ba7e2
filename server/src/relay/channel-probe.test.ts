import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockOpenAIUpstream } from '../../test/mock-openai-upstream.js';
import { createChannel } from '../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { probeChannel } from './channel-probe.js';
import { relayRuntime } from './runtime.js';
import { shouldDisableChannel } from '../domain/channel/should-disable.js';

describe('channel probe', () => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  beforeAll(async () => {
    server = await startTestServer({ env: { TEST_PROMPT: 'say your name' } });
    upstream = await MockOpenAIUpstream.start();
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('a healthy OpenAI channel answers with the reply, through the model mapping', async () => {
    upstream.reset();
    const channel = await createChannel(server, {
      base_url: upstream.url,
      model_mapping: '{"gpt-4o-mini":"gpt-4o-mini-2024-07-18"}',
    });
    const result = await probeChannel(server.context, relayRuntime(server.context).client, channel, 'gpt-4o-mini');
    expect(result).toMatchObject({ success: true, message: 'Hello from the mock upstream', model: 'gpt-4o-mini' });
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    const sent = upstream.lastRequest!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-key');
    expect(sent.json).toEqual({
      model: 'gpt-4o-mini-2024-07-18',
      messages: [{ role: 'user', content: 'say your name' }],
    });
  });

  test('an Azure channel is called on its deployment URL with api-key', async () => {
    upstream.reset();
    const channel = await createChannel(server, {
      type: 3,
      base_url: upstream.url,
      config: '{"api_version":"2024-06-01"}',
    });
    const result = await probeChannel(server.context, relayRuntime(server.context).client, channel, 'gpt-3.5-turbo');
    expect(result.success).toBe(true);
    expect(upstream.lastRequest!.url).toBe('/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-06-01');
    expect(upstream.lastRequest!.headers['api-key']).toBe('sk-upstream-key');
  });

  test('failures carry the upstream error; missing usage fails', async () => {
    const channel = await createChannel(server, { base_url: upstream.url });
    upstream.set({
      failure: {
        status: 401,
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      },
    });
    const denied = await probeChannel(server.context, relayRuntime(server.context).client, channel, 'gpt-4o-mini');
    expect(denied).toMatchObject({ success: false, error: { status: 401, code: 'invalid_api_key' } });
    expect(denied.message).toBe('http status code 401, error message: Incorrect API key provided');
    expect(shouldDisableChannel(denied.error!)).toBe(true);
    upstream.set({ usage: null });
    expect(
      (await probeChannel(server.context, relayRuntime(server.context).client, channel, 'gpt-4o-mini')).success,
    ).toBe(false);
    upstream.set({ garbage: 'html' });
    expect(
      await probeChannel(server.context, relayRuntime(server.context).client, channel, 'gpt-4o-mini'),
    ).toMatchObject({
      success: false,
      error: { status: 502 },
    });
    const dead = await createChannel(server, { base_url: 'http://127.0.0.1:1' });
    expect(await probeChannel(server.context, relayRuntime(server.context).client, dead, 'gpt-4o-mini')).toMatchObject({
      success: false,
      error: { code: 'do_request_failed' },
    });
    const unsupported = await createChannel(server, { type: 0, base_url: upstream.url });
    expect(
      await probeChannel(server.context, relayRuntime(server.context).client, unsupported, 'gpt-4o-mini'),
    ).toMatchObject({
      success: false,
      error: { status: 501 },
    });
  });
});

describe('shouldDisableChannel', () => {
  test("follows one-api's fatal-error rule but never for 429 or 5xx", () => {
    expect(shouldDisableChannel({ status: 401, message: 'x' })).toBe(true);
    expect(shouldDisableChannel({ status: 403, type: 'permission_error', message: 'x' })).toBe(true);
    expect(shouldDisableChannel({ status: 400, code: 'account_deactivated', message: 'x' })).toBe(true);
    expect(shouldDisableChannel({ status: 400, message: 'Your credit balance is too low' })).toBe(true);
    expect(shouldDisableChannel({ status: 400, message: '账户已欠费' })).toBe(true);
    expect(shouldDisableChannel({ status: 429, type: 'insufficient_quota', message: 'balance' })).toBe(false);
    expect(shouldDisableChannel({ status: 503, message: 'permission denied' })).toBe(false);
    expect(shouldDisableChannel({ status: 400, type: 'invalid_request_error', message: 'bad field' })).toBe(false);
  });
});
