import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { balances, createChannel, createToken, createUser } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

/**
 * Refusals the coding agents must not mistake for something else (issue 30): a model no channel serves is a
 * 404 in each front's dialect (a 503 made the CLIs retry for minutes), a low balance is a billing error (not
 * a bad key), and "served, but every channel failed" stays a 503. Requests are counted at the server, so an
 * SDK's retry would show.
 */
describe.each(await availableEngines())('front refusals on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let failing: MockOpenAIUpstream;
  let userId: number;
  let token: { id: number; key: string };
  let arrived = 0;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    server.app.server.on('request', () => arrived++);
    upstream = await MockOpenAIUpstream.start();
    failing = await MockOpenAIUpstream.start({ failure: { status: 503 } });
    await createChannel(server, { base_url: upstream.url, models: 'gpt-4o-mini' });
    await createChannel(server, { base_url: failing.url, models: 'gpt-3.5-turbo' });
    userId = await createUser(server, { username: 'refusals', quota: 50_000_000 });
    token = await createToken(server, userId);
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await failing?.close();
  });
  beforeEach(() => {
    arrived = 0;
  });

  const openai = (key = token.key, maxRetries = 2) =>
    new OpenAI({ apiKey: `sk-${key}`, baseURL: `${server.url}/v1`, maxRetries });
  const anthropic = (key = token.key, maxRetries = 2) =>
    new Anthropic({ apiKey: `sk-${key}`, baseURL: server.url, maxRetries });
  const gemini = (model: string, key = token.key) =>
    fetch(`${server.url}/v1beta/models/${model}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': `sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
  const hi = [{ role: 'user' as const, content: 'hi' }];
  const noChannelText = '当前分组 default 下对于模型 no-such-model 无可用渠道';

  test('a model no channel serves is a 404 in each dialect, not retried, nothing charged', async () => {
    const before = await balances(server, userId, token.id);
    const chat = await openai()
      .chat.completions.create({ model: 'no-such-model', messages: hi })
      .catch((error: unknown) => error);
    expect(chat).toBeInstanceOf(OpenAI.NotFoundError);
    expect((chat as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: expect.stringContaining(noChannelText),
    });
    expect(arrived).toBe(1);

    const responses = await openai()
      .responses.create({ model: 'no-such-model', input: 'hi' })
      .catch((error: unknown) => error);
    expect(responses).toBeInstanceOf(OpenAI.NotFoundError);
    expect((responses as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    expect(arrived).toBe(2);

    const messages = await anthropic()
      .messages.create({ model: 'no-such-model', max_tokens: 100, messages: hi })
      .catch((error: unknown) => error);
    expect(messages).toBeInstanceOf(Anthropic.NotFoundError);
    expect((messages as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: expect.stringContaining(noChannelText) },
    });
    expect(arrived).toBe(3);

    const generate = await gemini('no-such-model');
    expect(generate.status).toBe(404);
    expect(await generate.json()).toMatchObject({
      error: { code: 404, status: 'NOT_FOUND', message: expect.stringContaining(noChannelText) },
    });
    expect(arrived).toBe(4);
    expect(await balances(server, userId, token.id)).toEqual(before);
  });

  test('a served model whose every channel failed stays a 503', async () => {
    const chat = await openai(token.key, 0)
      .chat.completions.create({ model: 'gpt-3.5-turbo', messages: hi })
      .catch((error: unknown) => error);
    expect(chat).toBeInstanceOf(OpenAI.InternalServerError);
    expect((chat as InstanceType<typeof OpenAI.InternalServerError>).status).toBe(503);
    const messages = await anthropic(token.key, 0)
      .messages.create({ model: 'gpt-3.5-turbo', max_tokens: 100, messages: hi })
      .catch((error: unknown) => error);
    expect((messages as InstanceType<typeof Anthropic.APIError>).status).toBe(503);
    expect((await gemini('gpt-3.5-turbo')).status).toBe(503);
  });

  test('a low balance is a billing error in each dialect; the OpenAI fronts keep one-api’s answer', async () => {
    const broke = await createUser(server, { username: 'broke', quota: 0 });
    const brokeToken = await createToken(server, broke);
    const spent = await createToken(server, userId, { unlimited_quota: false, remain_quota: 0 });
    const short = await createToken(server, userId, { unlimited_quota: false, remain_quota: 1 });
    const cases = [
      { key: brokeToken.key, status: 403, code: 'insufficient_user_quota', text: '用户额度不足' },
      { key: spent.key, status: 401, code: 'token_exhausted', text: '额度已用尽' },
      { key: short.key, status: 403, code: 'pre_consume_token_quota_failed', text: '令牌额度不足' },
    ];
    for (const { key, status, code, text } of cases) {
      arrived = 0;
      const chat = await openai(key)
        .chat.completions.create({ model: 'gpt-4o-mini', messages: hi, max_tokens: 1000 })
        .catch((error: unknown) => error);
      expect(chat).toBeInstanceOf(OpenAI.APIError);
      expect(chat).toMatchObject({ status, code, error: { type: 'one_api_error' } });
      expect((chat as InstanceType<typeof OpenAI.APIError>).message).toContain(text);

      const messages = await anthropic(key)
        .messages.create({ model: 'gpt-4o-mini', max_tokens: 1000, messages: hi })
        .catch((error: unknown) => error);
      expect(messages).toBeInstanceOf(Anthropic.BadRequestError);
      expect((messages as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('credit balance is too low') },
      });
      expect(JSON.stringify((messages as InstanceType<typeof Anthropic.BadRequestError>).error)).toContain(text);

      const generate = await gemini('gpt-4o-mini', key);
      expect(generate.status).toBe(429);
      const body = (await generate.json()) as { error: { code: number; status: string; message: string } };
      expect(body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
      expect(body.error.message).toContain(text);
      // Gemini CLI takes a quota error whose limit is 0 as terminal; any other 429 it retries for minutes.
      expect(body.error.message).toMatch(/limit: 0\b/);
      expect(arrived).toBe(3);
    }
    expect(upstream.requests).toHaveLength(0);
  });
});
