import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { fixture, startMockUpstream, type MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { createChannel, createToken, createUser, setOption, settled } from '../../../test/relay-fixtures.js';
import { startedForSuite } from '../../../test/suite-lifecycle.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

const responsesFixture = (name: string) =>
  readFileSync(new URL(`../../relay/fronts/responses/__fixtures__/${name}`, import.meta.url), 'utf8');

const claudeModel = 'claude-3-7-sonnet-20250219';
/** The recorded streams each vendor's mock sends, whose bytes the native road passes on. */
const claudeStream = fixture('anthropic', 'thinking-stream.sse');
const responsesStream = responsesFixture('responses-text-stream.sse');
const geminiStream = fixture('gemini', 'stream.sse');

const chatHead = { id: 'chatcmpl-reseller', created: 1, model: 'gpt-4.1' };
const chatUsage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };

/**
 * A reseller's OpenAI-compatible address: chat completions only, `/v1/responses` answered 404 as such
 * addresses do (`Invalid URL`).
 */
const startReseller = () =>
  startMockUpstream((request, reply) => {
    if (request.path !== '/v1/chat/completions')
      return reply.json(404, {
        error: {
          message: `Invalid URL (POST ${request.path})`,
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
    if (!request.json?.stream)
      return reply.json(200, {
        ...chatHead,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Converted to chat.' }, finish_reason: 'stop' }],
        usage: chatUsage,
      });
    const chunks = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: 'Converted to chat.' }, finish_reason: 'stop' }] },
      { choices: [], usage: chatUsage },
    ].map((chunk) => `data: ${JSON.stringify({ ...chatHead, object: 'chat.completion.chunk', ...chunk })}\n\n`);
    return reply.stream('text/event-stream', `${chunks.join('')}data: [DONE]\n\n`);
  });

/** One mock per vendor answering its recorded stream, and a reseller without the Responses API. */
async function startGateway() {
  const claude = await startMockUpstream((_request, reply) => reply.stream('text/event-stream', claudeStream));
  const openai = await startMockUpstream((_request, reply) => reply.stream('text/event-stream', responsesStream));
  const gemini = await startMockUpstream((_request, reply) => reply.stream('text/event-stream', geminiStream));
  const resellers = { auto: await startReseller(), native: await startReseller(), chat: await startReseller() };
  const server = await startTestServer();
  await setOption(server, 'ModelRatio', JSON.stringify({ [claudeModel]: 1, 'gpt-4.1': 1, 'gemini-1.5-flash': 1 }));
  await createChannel(server, { type: 14, group: 'claude', base_url: claude.url, models: claudeModel });
  await createChannel(server, {
    type: 14,
    group: 'claude-alias',
    base_url: claude.url,
    models: 'claude-alias',
    model_mapping: JSON.stringify({ 'claude-alias': claudeModel }),
  });
  await createChannel(server, {
    type: 1,
    group: 'openai',
    key: 'sk-upstream-key',
    base_url: openai.url,
    models: 'gpt-4.1',
  });
  await createChannel(server, { type: 24, group: 'gemini', base_url: gemini.url, models: 'gemini-1.5-flash' });
  for (const [setting, reseller] of Object.entries(resellers))
    await createChannel(server, {
      type: 1,
      group: `reseller-${setting}`,
      base_url: reseller.url,
      models: 'gpt-4.1',
      ...(setting === 'auto' ? {} : { config: JSON.stringify({ responses_api: setting }) }),
    });
  return {
    server,
    claude,
    openai,
    gemini,
    resellers,
    async close() {
      await server.close();
      await Promise.all([claude, openai, gemini, ...Object.values(resellers)].map((mock) => mock.close()));
    },
  };
}

/** A user of `group` with a key; `logs` reads what its calls were billed. */
async function member(server: TestServer, group: string) {
  const userId = await createUser(server, { username: `road-${group}-${Math.random()}`, group, quota: 10_000_000 });
  const token = await createToken(server, userId);
  const key = `sk-${token.key}`;
  return {
    key,
    openai: new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 }),
    async logs() {
      await settled(server);
      return server.context.logDatabase.db
        .selectFrom('logs')
        .select(['prompt_tokens', 'completion_tokens', 'model_name'])
        .where('user_id', '=', userId)
        .where('type', '=', 2)
        .orderBy('id')
        .execute();
    },
  };
}

const hits = (mock: MockUpstream, path: string) => mock.requests.filter((request) => request.path === path).length;

/** The events of an SSE text, each as written (with its blank line). */
const eventsOf = (text: string) => text.split(/(?<=\n\r?\n)/).filter((event) => event.trim() !== '');

describe("the native road: a channel that speaks the front's protocol gets its bytes passed on", () => {
  const gateway = startedForSuite(startGateway);

  test("Anthropic front → Claude channel: the upstream's events byte for byte, billed from message_start and message_delta", async () => {
    const client = await member(gateway.server, 'claude');
    const response = await client.anthropic.messages
      .create({ model: claudeModel, max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'Weather?' }] })
      .asResponse();
    expect(await response.text()).toBe(claudeStream);
    // The same stream read by the SDK: thinking with its signature, the tool call.
    const message = await client.anthropic.messages
      .stream({ model: claudeModel, max_tokens: 1024, messages: [{ role: 'user', content: 'Weather?' }] })
      .finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'text', 'tool_use']);
    expect(message.content[0]).toMatchObject({ signature: expect.stringMatching(/^ErUB/) });
    // message_start: 18 input, 1250 written to the cache, 3000 read; message_delta: 96 output.
    const expected = { prompt_tokens: 18 + 1250 + 3000, completion_tokens: 96, model_name: claudeModel };
    expect(await client.logs()).toEqual([expected, expected]);
  });

  test('the model the client named stays in message_start when the channel maps it; every other event passes as sent', async () => {
    const client = await member(gateway.server, 'claude-alias');
    const response = await client.anthropic.messages
      .create({ model: 'claude-alias', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .asResponse();
    const [start, ...rest] = eventsOf(await response.text());
    const [upstreamStart, ...upstreamRest] = eventsOf(claudeStream);
    expect(rest).toEqual(upstreamRest);
    const data = (event: string) => JSON.parse(event.slice(event.indexOf('data: ') + 6)) as Record<string, unknown>;
    const upstreamData = data(upstreamStart!);
    expect(data(start!)).toEqual({
      ...upstreamData,
      message: { ...(upstreamData.message as object), model: 'claude-alias' },
    });
  });

  test("Responses front → OpenAI channel: deltas byte for byte, the response object under the gateway's id, billed from response.completed", async () => {
    const client = await member(gateway.server, 'openai');
    const response = await client.openai.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true }).asResponse();
    const events = eventsOf(await response.text());
    const upstream = eventsOf(responsesStream);
    expect(events).toHaveLength(upstream.length);
    let gatewayId: string | undefined;
    events.forEach((event, index) => {
      if (!upstream[index]!.includes('"response":{')) return expect(event).toBe(upstream[index]);
      const { response: sent } = JSON.parse(event.slice(event.indexOf('data: ') + 6)) as { response: { id: string } };
      expect(sent.id).toMatch(/^resp_/);
      expect(upstream[index]).not.toContain(sent.id);
      gatewayId ??= sent.id;
      expect(sent.id).toBe(gatewayId);
    });
    // Stored under the gateway's id once the stream finished.
    expect((await client.openai.responses.retrieve(gatewayId!)).status).toBe('completed');
    expect(await client.logs()).toEqual([{ prompt_tokens: 37, completion_tokens: 11, model_name: 'gpt-4.1' }]);
  });

  test("Gemini front → Gemini channel: the upstream's events byte for byte, billed from the last usageMetadata", async () => {
    const client = await member(gateway.server, 'gemini');
    const response = await fetch(`${gateway.server.url}/v1beta/models/gemini-1.5-flash:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': client.key },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(geminiStream);
    expect(await client.logs()).toEqual([{ prompt_tokens: 9, completion_tokens: 7, model_name: 'gemini-1.5-flash' }]);
  });
});

describe('an OpenAI-type channel whose upstream has no /v1/responses (responses_api)', () => {
  const gateway = startedForSuite(startGateway);

  test('auto: the 404 turns the call into chat, and the channel goes straight to chat from then on', async () => {
    const reseller = gateway.resellers.auto;
    const client = await member(gateway.server, 'reseller-auto');
    const plain = await client.openai.responses.create({ model: 'gpt-4.1', input: 'hi' });
    expect(plain.output_text).toBe('Converted to chat.');
    expect([hits(reseller, '/v1/responses'), hits(reseller, '/v1/chat/completions')]).toEqual([1, 1]);
    const stream = await client.openai.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('Converted to chat.');
    const again = await client.openai.responses.create({ model: 'gpt-4.1', input: 'again' });
    expect(again.output_text).toBe('Converted to chat.');
    expect([hits(reseller, '/v1/responses'), hits(reseller, '/v1/chat/completions')]).toEqual([1, 3]);
    const billed = { prompt_tokens: 9, completion_tokens: 3, model_name: 'gpt-4.1' };
    expect(await client.logs()).toEqual([billed, billed, billed]);
  });

  test("auto, streamed first: the stream too is served through chat after the upstream's 404", async () => {
    const reseller = await startReseller();
    const server = gateway.server;
    await createChannel(server, { type: 1, group: 'reseller-stream', base_url: reseller.url, models: 'gpt-4.1' });
    try {
      const client = await member(server, 'reseller-stream');
      const stream = await client.openai.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true });
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      expect(types.at(-1)).toBe('response.completed');
      expect([hits(reseller, '/v1/responses'), hits(reseller, '/v1/chat/completions')]).toEqual([1, 1]);
    } finally {
      await reseller.close();
    }
  });

  test('auto: an address that answers chat 404 as well is not remembered as converting', async () => {
    const nowhere = await startMockUpstream((request, reply) =>
      reply.json(404, { error: { message: `Invalid URL (POST ${request.path})`, type: 'invalid_request_error' } }),
    );
    await createChannel(gateway.server, { type: 1, group: 'nowhere', base_url: nowhere.url, models: 'gpt-4.1' });
    try {
      const client = await member(gateway.server, 'nowhere');
      for (let call = 1; call <= 2; call++) {
        const error = await client.openai.responses
          .create({ model: 'gpt-4.1', input: 'hi' })
          .catch((thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(OpenAI.NotFoundError);
        // Each call tries natively first: the chat 404 taught nothing.
        expect([hits(nowhere, '/v1/responses'), hits(nowhere, '/v1/chat/completions')]).toEqual([call, call]);
      }
    } finally {
      await nowhere.close();
    }
  });

  test("native: the upstream's 404 is the client's answer, in OpenAI's error shape; nothing is remembered", async () => {
    const reseller = gateway.resellers.native;
    const client = await member(gateway.server, 'reseller-native');
    for (let call = 1; call <= 2; call++) {
      const error = await client.openai.responses
        .create({ model: 'gpt-4.1', input: 'hi' })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.NotFoundError>).message).toContain('Invalid URL');
      expect(hits(reseller, '/v1/responses')).toBe(call);
    }
    expect(hits(reseller, '/v1/chat/completions')).toBe(0);
    expect(await client.logs()).toEqual([]);
  });

  test('chat: Responses calls are converted without ever trying the upstream natively', async () => {
    const reseller = gateway.resellers.chat;
    const client = await member(gateway.server, 'reseller-chat');
    expect((await client.openai.responses.create({ model: 'gpt-4.1', input: 'hi' })).output_text).toBe(
      'Converted to chat.',
    );
    const stream = await client.openai.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true });
    for await (const _event of stream);
    expect([hits(reseller, '/v1/responses'), hits(reseller, '/v1/chat/completions')]).toEqual([0, 2]);
  });

  test('the channel API takes auto, native and chat, and refuses any other responses_api', async () => {
    const root = await gateway.server.rootClient();
    const body = (responsesApi: string) => ({
      name: `responses-${responsesApi}`,
      type: 1,
      key: 'sk-k',
      models: 'gpt-4.1',
      group: 'unused',
      config: JSON.stringify({ responses_api: responsesApi }),
    });
    for (const setting of ['auto', 'native', 'chat'])
      expect((await root.post('/api/channel/', body(setting))).body.success).toBe(true);
    const refused = await root.post('/api/channel/', body('sometimes'));
    expect(refused.body).toEqual({ success: false, message: expect.stringContaining('responses_api') });
  });
});
