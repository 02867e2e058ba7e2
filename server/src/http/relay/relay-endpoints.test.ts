import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { balances, createChannel, createToken, createUser, setOption } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

describe.each(await availableEngines())('relay endpoints on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let channelId: number;
  beforeAll(async () => {
    server = await startTestServer({ engine });
    // one-api's endpoints billed as one-api did (§5.3a, transcripts by their tokens): the ratios stored as a
    // one-api database holds them; dall-e-3 and tts-1 keep one-api's built-in ones (decision 0026).
    await setOption(server, 'ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075, 'whisper-1': 15 }));
    upstream = await MockOpenAIUpstream.start();
    const channel = await createChannel(server, {
      base_url: upstream.url,
      models:
        'gpt-4o-mini,gpt-3.5-turbo-instruct,text-embedding-3-small,text-moderation-latest,dall-e-3,tts-1,whisper-1,my-custom-model',
    });
    channelId = channel.id;
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });
  beforeEach(() => upstream.reset());

  async function account(quota: number, token: Parameters<typeof createToken>[2] = {}) {
    const userId = await createUser(server, { username: `u${Math.random().toString(36).slice(2, 10)}`, quota });
    const { id, key } = await createToken(server, userId, token);
    const client = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    return { userId, tokenId: id, key, client };
  }

  test('chat completion: worked example of §5.3a billed to the unit on a limited token', async () => {
    upstream.set({ usage: { prompt_tokens: 1000, completion_tokens: 500 } });
    const { client, userId, tokenId } = await account(10_000, { unlimited_quota: false, remain_quota: 10_000 });
    const before = await balances(server, userId, tokenId, channelId);
    const answer = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(answer.choices[0]!.message.content).toBe('Hello from the mock upstream');
    expect(answer.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 500 });
    const sent = upstream.lastRequest!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-key');
    expect(sent.json).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    const after = await balances(server, userId, tokenId, channelId);
    expect(after).toMatchObject({
      userQuota: 10_000 - 225,
      userUsed: 225,
      requestCount: 1,
      tokenRemain: 10_000 - 225,
      tokenUsed: 225,
      channelUsed: before.channelUsed + 225,
      consumeLogs: 1,
    });
    const log = await server.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({
      content: '倍率：0.07 × 1.00 × 4.00',
      quota: 225,
      prompt_tokens: 1000,
      completion_tokens: 500,
      model_name: 'gpt-4o-mini',
      channel_id: channelId,
      token_name: 'test token',
    });
    expect(Boolean(log.is_stream)).toBe(false);
  });

  test('trusted users on unlimited tokens are charged once, and unlimited tokens count their usage', async () => {
    upstream.set({ usage: { prompt_tokens: 1000, completion_tokens: 500 } });
    const { client, userId, tokenId } = await account(1_000_000);
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    expect(await balances(server, userId, tokenId)).toMatchObject({
      userQuota: 1_000_000 - 225,
      userUsed: 225,
      tokenUsed: 225,
      requestCount: 1,
    });
  });

  test('with LogConsumeEnabled off the counters still move but no consume log is written', async () => {
    await setOption(server, 'LogConsumeEnabled', 'false');
    try {
      upstream.set({ usage: { prompt_tokens: 1000, completion_tokens: 500 } });
      const { client, userId, tokenId } = await account(1_000_000);
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
      expect(await balances(server, userId, tokenId)).toMatchObject({ userUsed: 225, requestCount: 1, consumeLogs: 0 });
    } finally {
      await setOption(server, 'LogConsumeEnabled', 'true');
    }
  });

  test('streaming passes chunks through, asks for usage and bills it', async () => {
    upstream.set({ usage: { prompt_tokens: 1000, completion_tokens: 500 }, chunks: 5 });
    const { client, userId, tokenId } = await account(10_000, { unlimited_quota: false, remain_quota: 10_000 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    let usage;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello from the mock upstream');
    expect(usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 500 });
    expect(upstream.lastRequest!.json.stream_options).toEqual({ include_usage: true });
    expect(await balances(server, userId, tokenId)).toMatchObject({
      userQuota: 10_000 - 225,
      tokenRemain: 10_000 - 225,
      requestCount: 1,
    });
  });

  test("a stream's headers reach the client at once, while the model is still on its way to the first token", async () => {
    upstream.set({ chunks: 2, chunkDelayMs: 600 });
    const { client } = await account(10_000);
    const startedAt = Date.now();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .withResponse();
    // The headers arrived before the upstream wrote its first event (600 ms after its own headers).
    expect(upstream.lastRequest!.eventsSent ?? 0).toBe(0);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the mock upstream');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1200);
    upstream.reset();
  });

  test('a stream without usage is counted locally; Azure preludes are dropped', async () => {
    upstream.set({ usage: null, azurePrelude: true });
    const { client, userId, tokenId } = await account(10_000_000);
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const body = await response.text();
    expect(body).not.toContain('prompt_filter_results');
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(body.match(/\[DONE\]/g)).toHaveLength(1);
    const after = await balances(server, userId, tokenId);
    expect(after.userUsed).toBeGreaterThan(0);
    expect(after.requestCount).toBe(1);
  });

  test('completions, embeddings (both paths) and moderations', async () => {
    const { client, key, userId, tokenId } = await account(10_000_000);
    const completion = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' });
    expect(completion.choices[0]!.text).toBe('Hello from the mock upstream');
    const embedding = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    expect(embedding.data).toHaveLength(2);
    const engine = await fetch(`${server.url}/v1/engines/text-embedding-3-small/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'hello' }),
    });
    expect(engine.status).toBe(200);
    expect(upstream.lastRequest!.url).toBe('/v1/embeddings');
    const moderation = await client.moderations.create({ input: 'hello' });
    expect(moderation.results[0]!.flagged).toBe(false);
    expect(upstream.lastRequest!.json.model).toBe('text-moderation-latest');
    expect((await balances(server, userId, tokenId)).requestCount).toBe(4);
  });

  test('images are priced per image; speech by input length; transcripts by their tokens', async () => {
    const { client, userId, tokenId } = await account(10_000_000);
    const image = await client.images.generate({ model: 'dall-e-3', prompt: 'a cat', size: '1024x1024' });
    expect(image.data![0]!.url).toBe('https://images.example/0.png');
    expect((await balances(server, userId, tokenId)).userUsed).toBe(20_000);

    const speech = await client.audio.speech.create({ model: 'tts-1', input: 'hello there', voice: 'alloy' });
    expect(Buffer.from(await speech.arrayBuffer()).toString()).toBe('ID3-mock-audio:hello there');
    expect((await balances(server, userId, tokenId)).userUsed).toBe(20_000 + Math.floor(11 * 7.5));

    const file = await toFile(Buffer.from('RIFF fake wav'), 'speech.wav', { type: 'audio/wav' });
    const transcript = await client.audio.transcriptions.create({ model: 'whisper-1', file });
    expect(transcript.text).toBe('Hello from the mock upstream');
    expect(upstream.lastRequest!.form).toMatchObject({ model: 'whisper-1', file: 13 });
    const text = await client.audio.translations.create({ model: 'whisper-1', file, response_format: 'text' });
    expect(String(text).trim()).toBe('Hello from the mock upstream');
    const after = await balances(server, userId, tokenId);
    expect(after.requestCount).toBe(4);
    expect(after.userUsed).toBeGreaterThan(20_000 + 82);
  });

  test('model list of the key, model lookup, and the dashboard billing answers', async () => {
    const { client, key } = await account(10_000_000);
    const list = await client.models.list();
    const ids = list.data.map((model) => model.id);
    expect(ids).toContain('gpt-4o-mini');
    expect(ids.at(-1)).toBe('my-custom-model');
    expect(list.data.find((model) => model.id === 'my-custom-model')!.owned_by).toBe('custom');
    expect((await client.models.retrieve('gpt-4o-mini')).owned_by).toBe('openai');
    await expect(client.models.retrieve('no-such-model')).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });

    const restricted = await account(1000, { models: 'gpt-4o-mini' });
    expect((await restricted.client.models.list()).data.map((model) => model.id)).toEqual(['gpt-4o-mini']);

    const limited = await account(1000, { unlimited_quota: false, remain_quota: 250_000 });
    for (const prefix of ['', '/v1']) {
      const subscription = await fetch(`${server.url}${prefix}/dashboard/billing/subscription`, {
        headers: { authorization: `Bearer sk-${limited.key}` },
      });
      expect(await subscription.json()).toMatchObject({
        object: 'billing_subscription',
        hard_limit_usd: 0.5,
        access_until: 0,
      });
      const usage = await fetch(`${server.url}${prefix}/dashboard/billing/usage`, {
        headers: { authorization: `Bearer sk-${key}` },
      });
      expect(await usage.json()).toEqual({ object: 'list', total_usage: 0 });
    }
  });

  test('CORS for any origin, preflight without a key, 501 for unimplemented APIs, 404 for unknown paths', async () => {
    const preflight = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const { key } = await account(1000);
    const files = await fetch(`${server.url}/v1/files`, {
      headers: { authorization: `Bearer sk-${key}`, origin: 'https://x.example' },
    });
    expect(files.status).toBe(501);
    expect(files.headers.get('access-control-allow-origin')).toBe('https://x.example');
    expect((await files.json()).error).toMatchObject({ type: 'one_api_error', code: 'api_not_implemented' });
    const unknown = await fetch(`${server.url}/v1/nothing-here`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toBe('Invalid URL (POST /v1/nothing-here)');
  });
});
