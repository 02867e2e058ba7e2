import { gzipSync } from 'node:zlib';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { balances, createChannel, createToken, createUser } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

describe.each(await availableEngines())('relay refusals and bad input on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let userId: number;
  let token: { id: number; key: string };
  beforeAll(async () => {
    server = await startTestServer({ engine, env: { RELAY_TIMEOUT: '1' } });
    upstream = await MockOpenAIUpstream.start();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-4o-mini' });
    userId = await createUser(server, { username: 'errors', quota: 50_000 });
    token = await createToken(server, userId, { unlimited_quota: false, remain_quota: 40_000 });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}, key = token.key) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
  const chatBody = (extra: object = {}) =>
    JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...extra });

  async function expectError(response: Response, status: number, code: string | RegExp) {
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body.error.code).toMatch(code);
    expect(body.error.message).toMatch(/\(request id: \d+\)$/);
    return body.error as { message: string; type: string; code: string };
  }

  test('token refusals follow one-api, each saying what is wrong', async () => {
    const noKey = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: chatBody(),
      headers: { 'content-type': 'application/json' },
    });
    expect((await expectError(noKey, 401, 'no_token')).message).toContain('未提供令牌');
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody(), {}, 'nope'), 401, 'invalid_token')).message,
    ).toContain('无效的令牌');

    const disabled = await createToken(server, userId, { status: 2 });
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody(), {}, disabled.key), 401, 'token_unavailable'))
        .message,
    ).toContain('该令牌状态不可用');
    const expired = await createToken(server, userId, { expired_time: 1000 });
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody(), {}, expired.key), 401, 'token_expired'))
        .message,
    ).toContain('该令牌已过期');
    const empty = await createToken(server, userId, { unlimited_quota: false, remain_quota: 0 });
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody(), {}, empty.key), 401, 'token_exhausted'))
        .message,
    ).toContain('该令牌额度已用尽');
    const exhausted = await createToken(server, userId, { status: 4, name: 'spent' });
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody(), {}, exhausted.key), 401, 'token_exhausted'))
        .message,
    ).toContain('令牌 spent（#');
    const subnet = await createToken(server, userId, { subnet: '10.0.0.0/8' });
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody(), {}, subnet.key), 403, 'token_subnet_refused'))
        .message,
    ).toContain('当前 ip：127.0.0.1');
    // 127.0.0.1 is a trusted proxy (TRUSTED_PROXIES), so the forwarded client address is the one checked
    expect((await post('/v1/chat/completions', chatBody(), { 'x-forwarded-for': '10.1.2.3' }, subnet.key)).status).toBe(
      200,
    );
    const allowed = await createToken(server, userId, { subnet: '127.0.0.0/8,10.0.0.0/8' });
    expect((await post('/v1/chat/completions', chatBody(), {}, allowed.key)).status).toBe(200);
    const narrow = await createToken(server, userId, { models: 'gpt-3.5-turbo' });
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody(), {}, narrow.key), 403, 'model_not_allowed'))
        .message,
    ).toContain('该令牌无权使用模型：gpt-4o-mini');
    const suffix = await post('/v1/chat/completions', chatBody(), {}, `${token.key}-1`);
    expect((await expectError(suffix, 403, 'channel_forbidden')).message).toContain('普通用户不支持指定渠道');

    const bannedId = await createUser(server, { username: 'banned', quota: 1000 });
    const bannedToken = await createToken(server, bannedId);
    await server.context.database.db.updateTable('users').set({ status: 2 }).where('id', '=', bannedId).execute();
    await server.context.bus.publish('user', bannedId);
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody(), {}, bannedToken.key), 403, 'user_banned'))
        .message,
    ).toContain('用户已被封禁');

    const english = await post('/v1/chat/completions', chatBody(), { 'accept-language': 'en-US' }, 'nope');
    expect((await expectError(english, 401, 'invalid_token')).message).toContain('Invalid API key');
  });

  test('an unknown model or group answers 404 model_not_found without charging', async () => {
    const before = await balances(server, userId, token.id);
    const response = await post('/v1/chat/completions', chatBody({ model: 'no-such-model' }));
    expect((await expectError(response, 404, 'model_not_found')).message).toContain(
      '当前分组 default 下对于模型 no-such-model 无可用渠道',
    );
    expect(await balances(server, userId, token.id)).toEqual(before);
  });

  test('malformed bodies are 4xx in OpenAI shape and change no balance', async () => {
    const before = await balances(server, userId, token.id);
    await expectError(await post('/v1/chat/completions', '{"model": "gpt-4o-mini", '), 400, 'invalid_text_request');
    expect(
      (
        await expectError(
          await post('/v1/chat/completions', JSON.stringify({ messages: [] })),
          400,
          'invalid_text_request',
        )
      ).message,
    ).toContain('model is required');
    expect(
      (
        await expectError(
          await post('/v1/chat/completions', JSON.stringify({ model: 'gpt-4o-mini' })),
          400,
          'invalid_text_request',
        )
      ).message,
    ).toContain('field messages is required');
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody({ max_tokens: -1 })), 400, 'invalid_text_request'))
        .message,
    ).toContain('max_tokens is invalid');
    expect(
      (
        await expectError(
          await post('/v1/completions', JSON.stringify({ model: 'gpt-4o-mini' })),
          400,
          'invalid_text_request',
        )
      ).message,
    ).toContain('field prompt is required');
    expect(
      (
        await expectError(
          await post('/v1/embeddings', JSON.stringify({ model: 'gpt-4o-mini' })),
          400,
          'invalid_text_request',
        )
      ).message,
    ).toContain('field input is required');
    expect(
      (
        await expectError(
          await post('/v1/images/generations', JSON.stringify({ model: 'dall-e-3', prompt: 'x', size: '5x5' })),
          400,
          'invalid_text_request',
        )
      ).message,
    ).toContain('size not supported');
    expect(
      (
        await expectError(
          await post('/v1/audio/speech', JSON.stringify({ model: 'tts-1', input: 'x'.repeat(5000) })),
          400,
          'invalid_text_request',
        )
      ).message,
    ).toContain('too long');
    await expectError(await post('/v1/chat/completions', '[1,2]'), 400, 'invalid_text_request');
    await expectError(
      await post('/v1/chat/completions', chatBody(), { 'content-type': 'text/plain' }),
      400,
      'invalid_text_request',
    );
    await expectError(await post('/v1/audio/transcriptions', chatBody()), 400, 'invalid_text_request');
    const huge = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x'.repeat(5 * 1024 * 1024) }],
    });
    await expectError(await post('/v1/chat/completions', huge), 413, 'request_too_large');
    await expectError(
      await post('/v1/chat/completions', Buffer.from('not gzip'), { 'content-encoding': 'gzip' }),
      400,
      /.+/,
    );
    expect(upstream.requests).toHaveLength(0);
    expect(await balances(server, userId, token.id)).toEqual(before);
    const gzipped = await post('/v1/chat/completions', gzipSync(chatBody()), { 'content-encoding': 'gzip' });
    expect(gzipped.status).toBe(200);
  });

  test('upstream garbage becomes a clear error, refunds the reservation and the server keeps serving', async () => {
    const before = await balances(server, userId, token.id);
    upstream.set({ garbage: 'not-json' });
    expect(
      (await expectError(await post('/v1/chat/completions', chatBody()), 502, 'bad_response_body')).message,
    ).toContain('unreadable');
    upstream.set({ garbage: 'html-200' });
    await expectError(await post('/v1/chat/completions', chatBody()), 502, 'bad_response_body');
    upstream.set({ garbage: 'html' });
    const html = await expectError(await post('/v1/chat/completions', chatBody()), 502, 'bad_response_status_code');
    expect(html.message).toContain('bad response status code 502');
    upstream.set({ garbage: 'reset' });
    await expectError(await post('/v1/chat/completions', chatBody()), 500, 'do_request_failed');
    upstream.set({ garbage: 'hang' });
    await expectError(await post('/v1/chat/completions', chatBody()), 504, 'upstream_timeout');
    upstream.set({ garbage: 'json-to-stream' });
    await expectError(await post('/v1/chat/completions', chatBody({ stream: true })), 502, /.+/);
    upstream.set({
      failure: {
        status: 400,
        error: { message: 'bad field', type: 'invalid_request_error', code: 'invalid_value', param: 'temperature' },
      },
    });
    const passed = await expectError(await post('/v1/chat/completions', chatBody()), 400, 'invalid_value');
    expect(passed).toMatchObject({ type: 'invalid_request_error', param: 'temperature' });
    expect(await balances(server, userId, token.id)).toEqual(before);

    upstream.set({ garbage: 'cut-stream', usage: null, chunks: 6 });
    const client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    await expect(async () => {
      for await (const _chunk of stream) void _chunk;
    }).rejects.toThrow(/broke off/);
    const afterCut = await balances(server, userId, token.id);
    expect(afterCut.requestCount).toBe(before.requestCount + 1);
    expect(afterCut.userUsed).toBeGreaterThan(before.userUsed);
    expect(afterCut.userQuota).toBe(before.userQuota - (afterCut.userUsed - before.userUsed));

    upstream.reset();
    expect((await post('/v1/chat/completions', chatBody())).status).toBe(200);
  });

  test('RELAY_TIMEOUT bounds each wait, not the whole call: a stream that keeps coming is relayed whole, one that stalls is cut', async () => {
    const client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const streamText = async () => {
      const stream = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    };
    // Eight chunks 250 ms apart: two seconds in all, twice RELAY_TIMEOUT (1 s here), never a second's pause.
    upstream.set({ chunks: 8, chunkDelayMs: 250 });
    const startedAt = Date.now();
    expect((await streamText()).length).toBeGreaterThan(0);
    expect(Date.now() - startedAt).toBeGreaterThan(1500);
    expect(upstream.lastRequest?.connectionClosedAt).toBeUndefined();

    const before = await balances(server, userId, token.id);
    upstream.set({ chunks: 3, chunkDelayMs: 1500, usage: null });
    await expect(streamText()).rejects.toThrow(/broke off/);
    await expect
      .poll(async () => (await balances(server, userId, token.id)).requestCount, { timeout: 5000 })
      .toBe(before.requestCount + 1);
    upstream.reset();
  });

  test('a client that disconnects mid-stream aborts the upstream call and is charged for what was generated', async () => {
    upstream.set({ chunks: 20, chunkDelayMs: 50, usage: null });
    const before = await balances(server, userId, token.id);
    const response = await post('/v1/chat/completions', chatBody({ stream: true }), {});
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await expect
      .poll(async () => (await balances(server, userId, token.id)).requestCount, { timeout: 5000 })
      .toBe(before.requestCount + 1);
    const after = await balances(server, userId, token.id);
    // the upstream stream was abandoned: its connection is closed long before the 20 chunks (1 s) are out (the
    // mock may see the close after the charge is written)
    await expect.poll(() => upstream.lastRequest?.connectionClosedAt, { timeout: 5000 }).toBeDefined();
    expect(upstream.lastRequest!.eventsSent).toBeLessThan(20);
    expect(after.userUsed - before.userUsed).toBeGreaterThan(0);
    expect(after.userQuota).toBe(before.userQuota - (after.userUsed - before.userUsed));
  });

  test('a client that leaves before the upstream answers cancels the upstream call and is not charged', async () => {
    upstream.set({ garbage: 'hang' });
    const before = await balances(server, userId, token.id);
    const leaving = new AbortController();
    const call = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
      body: chatBody(),
      signal: leaving.signal,
    });
    await expect.poll(() => upstream.requests.length, { timeout: 5000 }).toBeGreaterThan(0);
    const leftAt = Date.now();
    leaving.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => upstream.lastRequest?.connectionClosedAt, { timeout: 5000 }).toBeDefined();
    // RELAY_TIMEOUT (1 s here, counted from the upstream request, just before leftAt) would close it too,
    // but only about a second later; the margin is for a busy machine.
    expect(upstream.lastRequest!.connectionClosedAt! - leftAt).toBeLessThan(800);
    const after = await balances(server, userId, token.id);
    expect(after.userQuota).toBe(before.userQuota);
    expect(after.requestCount).toBe(before.requestCount);
  });
});
