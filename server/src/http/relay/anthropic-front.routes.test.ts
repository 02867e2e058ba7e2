import Anthropic from '@anthropic-ai/sdk';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { toolLoop, toolLoopForOpenAI, weatherTool } from '../../../test/claude-code-tool-loop.js';
import { availableEngines } from '../../../test/engines.js';
import { anthropicMockKey, checkClaudeMessages, startAnthropicMock } from '../../../test/mock-upstreams/anthropic.js';
import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import {
  balances,
  chargesDuring,
  createChannel,
  createToken,
  createUser,
  setOption,
} from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

const toolCallStream = [
  { choices: [{ index: 0, delta: { role: 'assistant', content: 'Checking.' }, finish_reason: null }] },
  {
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        },
        finish_reason: null,
      },
    ],
  },
  {
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, finish_reason: null },
    ],
  },
  {
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, finish_reason: null },
    ],
  },
  { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  { choices: [], usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 } },
];

/** A loopback OpenAI: the recorded answers, a tool-call stream when tools are offered. */
function startOpenAIMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.headers.authorization !== 'Bearer sk-openai-upstream')
      return reply.json(401, {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    const body = request.json as { model?: string; stream?: boolean; tools?: unknown[] };
    if (body.model === 'gpt-4o-cached') {
      // An answer whose prompt was mostly served from OpenAI's prompt cache.
      const usage = {
        prompt_tokens: 1200,
        completion_tokens: 20,
        total_tokens: 1220,
        prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
      };
      const head = { id: 'chatcmpl-c', created: 1, model: 'gpt-4o-cached' };
      if (!body.stream)
        return reply.json(200, {
          ...head,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Cached.' }, finish_reason: 'stop' }],
          usage,
        });
      const chunks = [
        { choices: [{ index: 0, delta: { role: 'assistant', content: 'Cached.' }, finish_reason: 'stop' }] },
        { choices: [], usage },
      ].map((chunk) => `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...chunk })}\n\n`);
      return reply.stream('text/event-stream', `${chunks.join('')}data: [DONE]\n\n`);
    }
    if (body.stream && body.tools) {
      const events = toolCallStream.map(
        (chunk) =>
          `data: ${JSON.stringify({ id: 'chatcmpl-t', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', ...chunk })}\n\n`,
      );
      return reply.stream('text/event-stream', `${events.join('')}data: [DONE]\n\n`);
    }
    if (body.stream) return reply.stream('text/event-stream', fixture('openai', 'chat-stream.sse'));
    return reply.json(200, fixtureJson('openai', 'chat-completion.json'));
  });
}

const claudeError = (type: string, message: string) => ({ type: 'error', error: { type, message } });

type ClaudeTurn = { role: string; content: string | { type: string }[] };

/**
 * A loopback Claude with extended thinking and prompt caching (the recorded thinking answers, with cache
 * usage). Like Claude, it refuses a tool loop with thinking enabled whose last assistant turn does not start
 * with the thinking block the client got back earlier.
 */
function startThinkingClaudeMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return reply.json(401, claudeError('authentication_error', 'invalid x-api-key'));
    const body = request.json as { stream?: boolean; thinking?: { type: string }; messages?: ClaudeTurn[] };
    const problem = checkClaudeMessages(body.messages);
    if (problem) return reply.json(400, claudeError('invalid_request_error', problem));
    const lastAssistant = body.messages?.findLast((message) => message.role === 'assistant');
    const first = Array.isArray(lastAssistant?.content) ? lastAssistant.content[0]?.type : 'text';
    if (body.thinking?.type === 'enabled' && lastAssistant && first !== 'thinking' && first !== 'redacted_thinking')
      return reply.json(
        400,
        claudeError(
          'invalid_request_error',
          `Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`,
        ),
      );
    if (body.stream) return reply.stream('text/event-stream', fixture('anthropic', 'thinking-stream.sse'));
    return reply.json(200, fixtureJson('anthropic', 'thinking-tool-use.json'));
  });
}

const webSearchTool = { type: 'web_search_20250305', name: 'web_search', max_uses: 3 } as const;

/**
 * A loopback Claude that searches the web: like Claude, it answers with server_tool_use and
 * web_search_tool_result blocks (the recorded answers) only when the web search tool was offered.
 */
function startWebSearchClaudeMock(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return reply.json(401, claudeError('authentication_error', 'invalid x-api-key'));
    const body = request.json as { stream?: boolean; tools?: { type?: string }[] };
    if (!body.tools?.some((tool) => tool.type === webSearchTool.type))
      return reply.json(400, claudeError('invalid_request_error', 'this mock only searches'));
    if (body.stream) return reply.stream('text/event-stream', fixture('anthropic', 'web-search-stream.sse'));
    return reply.json(200, fixtureJson('anthropic', 'web-search.json'));
  });
}

/** A request written byte for byte on a socket (header values fetch would refuse); its status line back. */
function rawRequest(url: string, head: string, body: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${head}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`),
    );
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

const pdfDocument: Anthropic.DocumentBlockParam = {
  type: 'document',
  source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQKJcfsj6IK' },
  title: 'Report',
  cache_control: { type: 'ephemeral' },
};
const urlDocument: Anthropic.DocumentBlockParam = {
  type: 'document',
  source: { type: 'url', url: 'https://example.com/spec.pdf' },
};
const textDocument: Anthropic.DocumentBlockParam = {
  type: 'document',
  source: { type: 'text', media_type: 'text/plain', data: 'The tests use vitest.' },
  title: 'Notes',
};

const cached: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

describe.each(await availableEngines())('Anthropic front (POST /v1/messages) on $label', (engine) => {
  let server: TestServer;
  let claudeMock: MockUpstream;
  let thinkingMock: MockUpstream;
  let openaiMock: MockUpstream;
  let webSearchMock: MockUpstream;
  let anthropic: Anthropic;
  let key: string;
  let userId: number;
  let tokenId: number;
  let claudeChannelId: number;
  let openaiChannelId: number;

  beforeAll(async () => {
    server = await startTestServer({ engine });
    [claudeMock, thinkingMock, openaiMock, webSearchMock] = await Promise.all([
      startAnthropicMock(),
      startThinkingClaudeMock(),
      startOpenAIMock(),
      startWebSearchClaudeMock(),
    ]);
    const ratios = {
      'claude-3-5-sonnet-20241022': 1,
      'gpt-4o-mini': 1,
      'gpt-4o-cached': 1,
      'claude-sonnet-4-5': 1,
      'deepseek-chat': 1,
      'claude-mapped': 1,
      'claude-prompted': 1,
    };
    await setOption(server, 'ModelRatio', JSON.stringify({ ...ratios, 'claude-3-7-sonnet-20250219': 1.5 }));
    await setOption(server, 'CompletionRatio', JSON.stringify({ ...ratios, 'claude-3-7-sonnet-20250219': 5 }));
    await createChannel(server, {
      type: 14,
      name: 'claude with thinking',
      key: anthropicMockKey,
      base_url: thinkingMock.url,
      models: 'claude-3-7-sonnet-20250219',
    });
    await createChannel(server, {
      type: 1,
      name: 'openai, mapped, own system prompt',
      key: 'sk-openai-upstream',
      base_url: openaiMock.url,
      models: 'claude-on-gpt',
      model_mapping: JSON.stringify({ 'claude-on-gpt': 'gpt-4o-mini' }),
      system_prompt: 'Be brief.',
    });
    claudeChannelId = (
      await createChannel(server, {
        type: 14,
        name: 'claude',
        key: anthropicMockKey,
        base_url: claudeMock.url,
        models: 'claude-3-5-sonnet-20241022',
      })
    ).id;
    openaiChannelId = (
      await createChannel(server, {
        type: 1,
        name: 'openai',
        key: 'sk-openai-upstream',
        base_url: openaiMock.url,
        models: 'gpt-4o-mini',
      })
    ).id;
    await createChannel(server, {
      type: 1,
      name: 'openai with prompt caching',
      key: 'sk-openai-upstream',
      base_url: openaiMock.url,
      models: 'gpt-4o-cached',
    });
    // One model, two kinds of channel: OpenAI first (higher priority), Claude behind it.
    await createChannel(server, {
      type: 1,
      name: 'openai first for any-model',
      key: 'sk-openai-upstream',
      base_url: openaiMock.url,
      models: 'any-model',
      model_mapping: JSON.stringify({ 'any-model': 'gpt-4o-mini' }),
      priority: 10,
    });
    await createChannel(server, {
      type: 14,
      name: 'claude behind for any-model',
      key: anthropicMockKey,
      base_url: claudeMock.url,
      models: 'any-model',
      model_mapping: JSON.stringify({ 'any-model': 'claude-3-5-sonnet-20241022' }),
    });
    // The native road's body: as sent, model mapped, or rebuilt around a forced system prompt.
    await createChannel(server, {
      type: 14,
      name: 'claude, mapped',
      key: anthropicMockKey,
      base_url: claudeMock.url,
      models: 'claude-mapped',
      model_mapping: JSON.stringify({ 'claude-mapped': 'claude-3-5-sonnet-20241022' }),
    });
    await createChannel(server, {
      type: 14,
      name: 'claude, own system prompt',
      key: anthropicMockKey,
      base_url: claudeMock.url,
      models: 'claude-prompted',
      system_prompt: 'Be brief.',
    });
    await createChannel(server, {
      type: 36,
      name: 'deepseek (OpenAI-compatible, no file parts)',
      key: 'sk-openai-upstream',
      base_url: openaiMock.url,
      models: 'deepseek-chat',
    });
    await createChannel(server, {
      type: 14,
      name: 'claude that searches',
      key: anthropicMockKey,
      base_url: webSearchMock.url,
      models: 'claude-sonnet-4-5',
    });
    userId = await createUser(server, { username: 'claude-code', quota: 1_000_000 });
    const token = await createToken(server, userId);
    tokenId = token.id;
    key = `sk-${token.key}`;
    anthropic = new Anthropic({ apiKey: key, baseURL: server.url, maxRetries: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([claudeMock?.close(), thinkingMock?.close(), openaiMock?.close(), webSearchMock?.close()]);
  });

  const used = async () => (await balances(server, userId, tokenId)).userUsed;

  test('a Claude channel: message, tool use and billing', async () => {
    const before = await used();
    const message = await anthropic.messages.create({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 256,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-3-5-sonnet-20241022',
      content: [{ type: 'text', text: 'Hello! How can I help you today?' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 12, output_tokens: 10 },
    });
    // Anthropic's own API gets the request's bytes as the client sent them (the native road converts nothing).
    const sent = claudeMock.requests.at(-1)!;
    expect(sent.json).toEqual({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 256,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await used()) - before).toBe(22);
    const tool = await anthropic.messages.create({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 256,
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(tool.stop_reason).toBe('tool_use');
    expect(tool.content).toContainEqual({
      type: 'tool_use',
      id: 'toolu_01A09q90qw90lq917835lq9',
      name: 'get_weather',
      input: { city: 'Paris', unit: 'celsius' },
    });
  });

  test("Anthropic's own API gets the client's bytes, with only the mapped model or a forced system prompt changed", async () => {
    // Spacing, key order, a field newer than this gateway and cache_control: nothing is rebuilt on the way.
    const sent = (model: string) =>
      `{ "max_tokens":64,"model" : "${model}", "future_field": {"x": [1, 2]},\n` +
      `"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}],` +
      `"system":"You are terse.","metadata":{"user_id":"u-1"}}`;
    const post = async (model: string) => {
      const response = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: sent(model),
      });
      expect(response.status).toBe(200);
      await response.json();
      return claudeMock.requests.at(-1)!;
    };
    expect((await post('claude-3-5-sonnet-20241022')).body).toBe(sent('claude-3-5-sonnet-20241022'));
    expect((await post('claude-mapped')).json).toEqual({
      ...JSON.parse(sent('claude-mapped')),
      model: 'claude-3-5-sonnet-20241022',
    });
    const prompted = (await post('claude-prompted')).json!;
    expect(prompted.system).toBe('Be brief.');
    expect(prompted).toMatchObject({ model: 'claude-prompted', max_tokens: 64, future_field: { x: [1, 2] } });
  });

  test('a Claude channel streamed: the SDK assembles the event sequence', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 256,
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Checking.' }),
      { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage).toMatchObject({ input_tokens: 412, output_tokens: 58 });
  });

  test('an OpenAI channel behind the Anthropic front: whole, streamed text and streamed tool use', async () => {
    const before = await used();
    const message = await anthropic.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message).toMatchObject({
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 12, output_tokens: 3 },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await used()) - before).toBe(15);
    const textStream = anthropic.messages.stream({
      model: 'gpt-4o-mini',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let startUsage: Anthropic.Usage | undefined;
    textStream.on('streamEvent', (event) => {
      if (event.type === 'message_start') startUsage = event.message.usage;
    });
    const text = await textStream.finalMessage();
    // message_start comes before any upstream usage: it carries the local count of the prompt.
    expect(startUsage?.input_tokens).toBeGreaterThan(0);
    expect(text).toMatchObject({
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      usage: { output_tokens: 3 },
    });
    expect(openaiMock.requests.at(-1)!.json).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    const tool = await anthropic.messages
      .stream({
        model: 'gpt-4o-mini',
        max_tokens: 100,
        tools: [weatherTool],
        messages: [{ role: 'user', content: 'Weather?' }],
      })
      .finalMessage();
    expect(tool.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Checking.' }),
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(tool.stop_reason).toBe('tool_use');
    expect(openaiMock.requests.at(-1)!.json).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
    });
  });

  test('a Claude channel with thinking and prompt caching: the tool loop reaches Claude as sent, the answer comes back whole, cache tokens are billed', async () => {
    const before = await used();
    const message = await anthropic.messages.create(toolLoop);
    expect(thinkingMock.requests.at(-1)!.json).toEqual(toolLoop);
    expect(message).toEqual({
      ...(fixtureJson('anthropic', 'thinking-tool-use.json') as object),
      model: 'claude-3-7-sonnet-20250219',
    });
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'text', 'tool_use']);
    expect(message.usage).toMatchObject({
      input_tokens: 18,
      cache_creation_input_tokens: 1250,
      cache_read_input_tokens: 3000,
      output_tokens: 96,
    });
    // Prompt = all input (18 + 1250 written + 3000 read = 4268); ceil((4268 + 96 × 5) × 1.5) = 7122.
    expect((await used()) - before).toBe(7122);
  });

  test('a Claude channel with thinking, streamed: thinking, signature and redacted blocks reach the SDK at their indexes', async () => {
    const before = await used();
    const stream = anthropic.messages.stream(toolLoop);
    // The SDK keeps pings to itself.
    const events: Anthropic.MessageStreamEvent[] = [];
    stream.on('streamEvent', (event) => events.push(event));
    const final = await stream.finalMessage();
    expect(thinkingMock.requests.at(-1)!.json).toMatchObject({ stream: true, thinking: { type: 'enabled' } });
    expect(events.map((event) => `${event.type}${'index' in event ? `:${event.index}` : ''}`)).toEqual([
      'message_start',
      'content_block_start:0',
      'content_block_delta:0',
      'content_block_delta:0',
      'content_block_delta:0',
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_stop:1',
      'content_block_start:2',
      'content_block_delta:2',
      'content_block_stop:2',
      'content_block_start:3',
      'content_block_delta:3',
      'content_block_delta:3',
      'content_block_stop:3',
      'message_delta',
      'message_stop',
    ]);
    expect(final.content).toEqual([
      {
        type: 'thinking',
        thinking: 'The user wants the weather in Paris. I should call get_weather.',
        signature: expect.stringMatching(/^ErUB/),
      },
      { type: 'redacted_thinking', data: expect.stringMatching(/^EmwK/) },
      expect.objectContaining({ type: 'text', text: 'Let me check the weather.' }),
      { type: 'tool_use', id: 'toolu_01ThinkB', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(final.model).toBe('claude-3-7-sonnet-20250219');
    expect(final.usage).toMatchObject({
      input_tokens: 18,
      cache_creation_input_tokens: 1250,
      cache_read_input_tokens: 3000,
      output_tokens: 96,
    });
    expect((await used()) - before).toBe(7122);
  });

  test('an OpenAI channel behind the front gets plain OpenAI bodies: no cache_control, thinking or signatures', async () => {
    const request = { ...toolLoop, model: 'gpt-4o-mini' };
    const plain = await anthropic.messages.create(request);
    expect(plain.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello!' })]);
    const mapped = await anthropic.messages.create({ ...request, model: 'claude-on-gpt' });
    expect(mapped.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello!' })]);
    const [asSent, reserialised] = openaiMock.requests.slice(-2);
    const expected = toolLoopForOpenAI({ model: 'gpt-4o-mini', stream: false });
    expect(asSent!.json).toEqual(expected);
    const forced = { role: 'system', content: 'Be brief.' };
    expect(reserialised!.json).toEqual({ ...expected, messages: [forced, ...expected.messages.slice(1)] });
    for (const received of [asSent!, reserialised!])
      expect(received.body.toString()).not.toMatch(/cache_control|thinking|signature|claude/);
  });

  test('errors in Anthropic shape: bad key, Authorization bearer, invalid body, unknown model, upstream failure', async () => {
    const denied = await new Anthropic({ apiKey: 'sk-wrong', baseURL: server.url, maxRetries: 0 }).messages
      .create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    const bearer = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(bearer.status).toBe(200);
    const invalid = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [] }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^max_tokens: /) },
    });
    const badBlock = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'system', content: 'Be brief.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', input: {} }] },
        ],
      }),
    });
    expect(badBlock.status).toBe(400);
    expect(await badBlock.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^messages\.2\.content\.0\.name: /) },
    });
    const unknown = await anthropic.messages
      .create({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Anthropic.APIError);
    expect((unknown as InstanceType<typeof Anthropic.APIError>).status).toBe(404);
    claudeMock.failNext(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const overloaded = (await anthropic.messages
      .create({ model: 'claude-3-5-sonnet-20241022', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error)) as InstanceType<typeof Anthropic.APIError>;
    expect(overloaded.status).toBe(529);
    expect(overloaded.error).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error', message: expect.stringContaining('Overloaded') },
    });
  });

  test("a Claude channel gets the client's anthropic-beta and anthropic-version; an OpenAI channel neither", async () => {
    const betas = ['interleaved-thinking-2025-05-14', 'claude-code-20250219'];
    // Claude Code uses the beta API: POST /v1/messages?beta=true with the flags in anthropic-beta.
    const message = await anthropic.beta.messages.create({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 64,
      betas,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([expect.objectContaining({ type: 'text' })]);
    const received = claudeMock.requests.at(-1)!;
    expect(received.headers['anthropic-beta']).toBe(betas.join(','));
    // The SDK's own version, passed on.
    expect(received.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(received.headers['x-api-key']).toBe(anthropicMockKey);
    await anthropic.messages.create(
      {
        model: 'claude-3-5-sonnet-20241022',
        max_tokens: 64,
        stream: false,
        messages: [{ role: 'user', content: 'hi' }],
      },
      { headers: { 'anthropic-version': '2023-01-01' } },
    );
    expect(claudeMock.requests.at(-1)!.headers['anthropic-version']).toBe('2023-01-01');
    await anthropic.beta.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      betas,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const openaiReceived = openaiMock.requests.at(-1)!;
    expect(openaiReceived.headers['anthropic-beta']).toBeUndefined();
    expect(openaiReceived.headers['anthropic-version']).toBeUndefined();
    expect(openaiReceived.body.toString()).not.toMatch(/interleaved|claude-code/);
  });

  test('forged anthropic-beta and anthropic-version values never reach the upstream', async () => {
    const body = JSON.stringify({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });
    // Characters a header may carry but a flag never has: the flag is dropped, its neighbours kept.
    const answer = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01; x-api-key=stolen',
        'anthropic-beta': 'interleaved-thinking-2025-05-14, evil;x-api-key=stolen, a b, x-forwarded-for:1.2.3.4',
      },
      body,
    });
    expect(answer.status).toBe(200);
    const received = claudeMock.requests.at(-1)!;
    expect(received.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(received.headers['anthropic-version']).toBe('2023-06-01');
    expect(received.headers['x-api-key']).toBe(anthropicMockKey);
    expect(received.headers['x-forwarded-for']).toBeUndefined();
    // CR, LF or a folded line inside the value (what fetch refuses to send): refused before any relay.
    const before = claudeMock.requests.length;
    const forged = [
      'anthropic-beta: interleaved-thinking-2025-05-14\rx-injected: 1\r\n',
      'anthropic-beta: interleaved-thinking-2025-05-14\nx-injected: 1\r\n',
      'anthropic-beta: interleaved-thinking-2025-05-14,\r\n x-injected: 1\r\n',
      'anthropic-beta: interleaved-thinking-2025-05-14\u0000x-injected: 1\r\n',
    ];
    for (const header of forged) {
      const head = `POST /v1/messages HTTP/1.1\r\nhost: gateway\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\n${header}`;
      expect(await rawRequest(server.url, head, body)).toMatch(/^HTTP\/1\.1 400/);
    }
    expect(claudeMock.requests.length).toBe(before);
  });

  test('tool_choice none keeps the tools for Claude (the cached prefix stays), and they reach an OpenAI channel too', async () => {
    await anthropic.messages.create({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 64,
      tools: [{ ...weatherTool, cache_control: cached }],
      tool_choice: { type: 'none' },
      messages: [{ role: 'user', content: 'Just say hi.' }],
    });
    expect(claudeMock.requests.at(-1)!.json).toMatchObject({
      tools: [{ ...weatherTool, cache_control: cached }],
      tool_choice: { type: 'none' },
    });
    await anthropic.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      tools: [weatherTool],
      tool_choice: { type: 'none' },
      messages: [{ role: 'user', content: 'Just say hi.' }],
    });
    expect(openaiMock.requests.at(-1)!.json).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
      tool_choice: 'none',
    });
  });

  test('a user turn of documents only reaches a Claude channel as sent', async () => {
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: [pdfDocument, urlDocument, textDocument] },
      { role: 'assistant', content: [{ type: 'text', text: 'I have read them.' }] },
      { role: 'user', content: [pdfDocument] },
    ];
    const message = await anthropic.messages.create({ model: 'claude-3-5-sonnet-20241022', max_tokens: 64, messages });
    expect(message.content).toEqual([expect.objectContaining({ type: 'text' })]);
    expect((claudeMock.requests.at(-1)!.json as { messages: unknown }).messages).toEqual(messages);
    // A model with an OpenAI channel first and a Claude channel behind: the documents go to Claude.
    await anthropic.messages.stream({ model: 'any-model', max_tokens: 64, messages }).finalMessage();
    expect(claudeMock.requests.at(-1)!.json).toMatchObject({ model: 'claude-3-5-sonnet-20241022', messages });
    // Without documents, the OpenAI channel keeps its priority.
    const openaiCalls = openaiMock.requests.length;
    await anthropic.messages.create({ model: 'any-model', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    expect(openaiMock.requests.length).toBe(openaiCalls + 1);
  });

  test('documents on OpenAI-protocol channels: text becomes text, an inline PDF a file part, where the channel reads those', async () => {
    await anthropic.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      messages: [{ role: 'user', content: [textDocument] }],
    });
    expect(openaiMock.requests.at(-1)!.json).toMatchObject({
      messages: [{ role: 'user', content: 'Notes\n\nThe tests use vitest.' }],
    });
    const filePart = {
      type: 'file',
      file: { filename: 'Report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQKJcfsj6IK' },
    };
    await anthropic.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      messages: [{ role: 'user', content: [pdfDocument, { type: 'text', text: 'Summarise.' }] }],
    });
    expect(openaiMock.requests.at(-1)!.json).toMatchObject({
      messages: [{ role: 'user', content: [filePart, { type: 'text', text: 'Summarise.' }] }],
    });
    const streamed = await anthropic.messages
      .stream({ model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: [pdfDocument] }] })
      .finalMessage();
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'text' })]);
    expect(openaiMock.requests.at(-1)!.json).toMatchObject({ messages: [{ role: 'user', content: [filePart] }] });

    // A PDF by URL only Claude reads; an inline PDF no DeepSeek channel does.
    const openaiCalls = openaiMock.requests.length;
    const refusal = async (model: string, document: Anthropic.DocumentBlockParam, language: string) =>
      (await anthropic.messages
        .create(
          {
            model,
            max_tokens: 64,
            messages: [{ role: 'user', content: [document, { type: 'text', text: 'Summarise.' }] }],
          },
          { headers: { 'accept-language': language } },
        )
        .catch((error: unknown) => error)) as InstanceType<typeof Anthropic.APIError>;
    const byUrl = await refusal('gpt-4o-mini', urlDocument, 'en-US');
    expect(byUrl).toBeInstanceOf(Anthropic.BadRequestError);
    expect(byUrl.error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('need a Claude channel') },
    });
    expect((await refusal('gpt-4o-mini', urlDocument, 'zh-CN')).error).toMatchObject({
      error: { message: expect.stringContaining('Claude 渠道') },
    });
    const onDeepSeek = await refusal('deepseek-chat', pdfDocument, 'en-US');
    expect(onDeepSeek).toBeInstanceOf(Anthropic.BadRequestError);
    expect(onDeepSeek.error).toMatchObject({
      error: {
        message: expect.stringContaining('PDF documents need a Claude channel, or an OpenAI or OpenRouter channel'),
      },
    });
    expect(openaiMock.requests.length).toBe(openaiCalls);
  });

  test("documents and an admin's forced channel: a Claude channel serves them, an OpenAI one is a clear 400", async () => {
    const adminId = await createUser(server, { username: 'documents-admin', quota: 1_000_000, role: 10 });
    const adminToken = await createToken(server, adminId);
    const adminKey = `sk-${adminToken.key}`;
    const forced = (channelId: number) =>
      new Anthropic({ apiKey: `${adminKey}-${channelId}`, baseURL: server.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [urlDocument] }];
    await forced(claudeChannelId).messages.create({ model: 'claude-3-5-sonnet-20241022', max_tokens: 16, messages });
    expect((claudeMock.requests.at(-1)!.json as { messages: unknown }).messages).toEqual(messages);
    const openaiCalls = openaiMock.requests.length;
    const before = await balances(server, adminId, adminToken.id);
    const refused = await forced(openaiChannelId)
      .messages.create({ model: 'gpt-4o-mini', max_tokens: 16, messages })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect(openaiMock.requests.length).toBe(openaiCalls);
    expect(await balances(server, adminId, adminToken.id)).toEqual(before);
  });

  test("an OpenAI channel's cached prompt tokens reach the client as cache reads; billing counts the whole prompt", async () => {
    const before = await used();
    const message = await anthropic.messages.create({
      model: 'gpt-4o-cached',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.usage).toMatchObject({ input_tokens: 176, cache_read_input_tokens: 1024, output_tokens: 20 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await used()) - before).toBe(1220);
    const streamed = await anthropic.messages
      .stream({ model: 'gpt-4o-cached', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage();
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'text', text: 'Cached.' })]);
    expect(streamed.usage).toMatchObject({ input_tokens: 176, cache_read_input_tokens: 1024, output_tokens: 20 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await used()) - before).toBe(2440);
  });

  const lastConsumeLog = () =>
    server.context.logDatabase.db
      .selectFrom('logs')
      .select(['content', 'quota'])
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  test('web search on a Claude channel: the tools go as sent, the search blocks come back whole, each search is charged', async () => {
    const before = await used();
    const message = await anthropic.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      tools: [weatherTool, webSearchTool],
      tool_choice: { type: 'auto' },
      messages: [{ role: 'user', content: 'When was Claude Shannon born?' }],
    });
    expect(webSearchMock.requests.at(-1)!.json).toMatchObject({
      tools: [weatherTool, webSearchTool],
      tool_choice: { type: 'auto' },
    });
    expect(message).toEqual({ ...(fixtureJson('anthropic', 'web-search.json') as object), model: 'claude-sonnet-4-5' });
    // Tokens (6039 + 931) plus two searches at $10 per 1,000: 2 × 0.01 × 500,000 quota per dollar.
    await expect.poll(async () => (await used()) - before, { timeout: 5000 }).toBe(6970 + 10_000);
    expect(await lastConsumeLog()).toMatchObject({ quota: 16_970, content: expect.stringContaining('网络搜索 2 次') });
  });

  test('web search streamed: the SDK assembles the search blocks and citations; WebSearchPrice sets the price', async () => {
    await setOption(server, 'WebSearchPrice', '25');
    try {
      const before = await used();
      const final = await anthropic.messages
        .stream({
          model: 'claude-sonnet-4-5',
          max_tokens: 1024,
          tools: [webSearchTool],
          messages: [{ role: 'user', content: 'Weather in Paris?' }],
        })
        .finalMessage();
      expect((webSearchMock.requests.at(-1)!.json as { tools: unknown }).tools).toEqual([webSearchTool]);
      expect(final.content.map((block) => block.type)).toEqual([
        'text',
        'server_tool_use',
        'web_search_tool_result',
        'text',
      ]);
      expect(final.content[1]).toMatchObject({ name: 'web_search', input: { query: 'weather Paris today' } });
      expect(final.content[3]).toMatchObject({
        text: 'It is sunny in Paris, 21 °C.',
        citations: [{ type: 'web_search_result_location', url: 'https://weather.example/paris' }],
      });
      expect(final.usage).toMatchObject({ output_tokens: 510, server_tool_use: { web_search_requests: 1 } });
      // Tokens (10682 + 510) plus one search at $25 per 1,000.
      await expect.poll(async () => (await used()) - before, { timeout: 5000 }).toBe(11_192 + 12_500);
    } finally {
      await setOption(server, 'WebSearchPrice', '10');
    }
  });

  test("web search's max_uses is reserved up front: a key that cannot pay for every search allowed is refused", async () => {
    const limited = await createToken(server, userId, { unlimited_quota: false, remain_quota: 20_000 });
    const client = new Anthropic({ apiKey: `sk-${limited.key}`, baseURL: server.url, maxRetries: 0 });
    const searches = webSearchMock.requests.length;
    const ask = (maxUses: number) =>
      client.messages.create({
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        tools: [{ ...webSearchTool, max_uses: maxUses }],
        messages: [{ role: 'user', content: 'When was Claude Shannon born?' }],
      });
    // Five searches at $10 per 1,000 are 25,000 quota, more than the key holds: refused before the upstream.
    const refused = await ask(5).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((refused as Error).message)).toContain('credit balance is too low');
    expect(String((refused as Error).message)).toContain('令牌额度不足');
    expect(webSearchMock.requests.length).toBe(searches);
    // One search fits: the call goes, and the key pays what ran (two searches and the tokens), not the reserve.
    await ask(1);
    expect(webSearchMock.requests.length).toBe(searches + 1);
    await expect
      .poll(async () => (await balances(server, userId, limited.id)).tokenRemain, { timeout: 5000 })
      .toBe(20_000 - 16_970);
  });

  test('web search on a model with OpenAI and Claude channels: the Claude channel serves it, even behind, PDF or not', async () => {
    const openaiCalls = openaiMock.requests.length;
    await anthropic.messages.create({
      model: 'any-model',
      max_tokens: 256,
      tools: [webSearchTool, weatherTool],
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    expect(claudeMock.requests.at(-1)!.json).toMatchObject({
      model: 'claude-3-5-sonnet-20241022',
      tools: [webSearchTool, weatherTool],
    });
    expect(openaiMock.requests.length).toBe(openaiCalls);
    // With an inline PDF too, which the OpenAI channel also reads: still the Claude channel, with the tool.
    await anthropic.messages.create({
      model: 'any-model',
      max_tokens: 256,
      tools: [webSearchTool],
      messages: [{ role: 'user', content: [pdfDocument, { type: 'text', text: 'What is new on this?' }] }],
    });
    expect(claudeMock.requests.at(-1)!.json).toMatchObject({
      tools: [webSearchTool],
      messages: [{ content: [pdfDocument, { type: 'text' }] }],
    });
    expect(openaiMock.requests.length).toBe(openaiCalls);
    // Without server tools, the OpenAI channel keeps its priority.
    await anthropic.messages.create({
      model: 'any-model',
      max_tokens: 256,
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    expect(openaiMock.requests.length).toBe(openaiCalls + 1);
  });

  test('web search on an OpenAI channel: the server tool is left out, the function tools still go', async () => {
    await anthropic.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 256,
      tools: [webSearchTool, weatherTool],
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    const sent = openaiMock.requests.at(-1)!.json as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['get_weather']);
    expect(JSON.stringify(sent)).not.toContain('web_search');
  });

  test('after a first channel fails (500), x-modelgate-dropped describes the channel that answered', async () => {
    await setOption(server, 'RetryTimes', '1');
    try {
      // Per group, a channel of one kind in front (it fails once) and one of the other behind it.
      const channel = (kind: 'claude' | 'openai', group: string, priority: number) =>
        createChannel(server, {
          type: kind === 'claude' ? 14 : 1,
          name: `${kind} of ${group}`,
          group,
          key: kind === 'claude' ? anthropicMockKey : 'sk-openai-upstream',
          base_url: kind === 'claude' ? claudeMock.url : openaiMock.url,
          models: 'retried-model',
          model_mapping: JSON.stringify({
            'retried-model': kind === 'claude' ? 'claude-3-5-sonnet-20241022' : 'gpt-4o-mini',
          }),
          priority,
        });
      const claudeFirst = await channel('claude', 'claude-then-openai', 5);
      const openaiBehind = await channel('openai', 'claude-then-openai', 0);
      const openaiFirst = await channel('openai', 'openai-then-claude', 5);
      const claudeBehind = await channel('claude', 'openai-then-claude', 0);
      const clientOf = async (group: string) => {
        const memberId = await createUser(server, { username: `retry-${group}`, group, quota: 1_000_000 });
        const token = await createToken(server, memberId);
        const client = new Anthropic({ apiKey: `sk-${token.key}`, baseURL: server.url, maxRetries: 0 });
        return { client, userId: memberId, tokenId: token.id };
      };
      // Claude Code's per-request effort: only Claude's own API takes it.
      const request = {
        model: 'retried-model',
        max_tokens: 64,
        messages: [{ role: 'user' as const, content: 'hi' }],
        output_config: { effort: 'low' as const },
      };
      const claudeFailure = claudeError('api_error', 'Internal server error');

      // The Claude channel got the request with output_config and failed; the OpenAI channel answered without it.
      const toOpenAI = await clientOf('claude-then-openai');
      let whole: Response | undefined;
      let streamed: Response | undefined;
      const toOpenAICharges = await chargesDuring(server, toOpenAI, [claudeFirst.id, openaiBehind.id], async () => {
        claudeMock.failNext(500, claudeFailure);
        const reply = await toOpenAI.client.messages.create(request).withResponse();
        expect(reply.data.content).toEqual([expect.objectContaining({ type: 'text' })]);
        whole = reply.response;
        expect(claudeMock.requests.at(-1)!.json).toMatchObject({ output_config: { effort: 'low' } });
        claudeMock.failNext(500, claudeFailure);
        const stream = await toOpenAI.client.messages.create({ ...request, stream: true }).withResponse();
        const events: string[] = [];
        for await (const event of stream.data) events.push(event.type);
        expect(events.at(-1)).toBe('message_stop');
        streamed = stream.response;
      });
      expect(openaiMock.requests.at(-1)!.json).not.toHaveProperty('output_config');
      expect(whole!.headers.get('x-modelgate-dropped')).toBe('output_config');
      expect(streamed!.headers.get('x-modelgate-dropped')).toBe('output_config');
      expect(toOpenAICharges.user).toBeGreaterThan(0);
      expect(toOpenAICharges.channels).toEqual([0, toOpenAICharges.user]);

      // The OpenAI channel got a conversion and failed; the Claude channel got the request whole: nothing dropped.
      const toClaude = await clientOf('openai-then-claude');
      let native: Response | undefined;
      const toClaudeCharges = await chargesDuring(server, toClaude, [openaiFirst.id, claudeBehind.id], async () => {
        openaiMock.failNext(500, { error: { message: 'The server had an error', type: 'server_error' } });
        const reply = await toClaude.client.messages.create(request).withResponse();
        expect(reply.data.content).toEqual([{ type: 'text', text: 'Hello! How can I help you today?' }]);
        native = reply.response;
      });
      expect(openaiMock.requests.at(-1)!.path).toBe('/v1/chat/completions');
      expect(claudeMock.requests.at(-1)!.json).toMatchObject({ output_config: { effort: 'low' } });
      expect(native!.headers.get('x-modelgate-dropped')).toBeNull();
      expect(toClaudeCharges.user).toBe(22);
      expect(toClaudeCharges.channels).toEqual([0, 22]);
    } finally {
      await setOption(server, 'RetryTimes', '0');
    }
  });

  test('count_tokens answers from the local tokenizer', async () => {
    const counted = await anthropic.messages.countTokens({
      model: 'claude-3-5-sonnet-20241022',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
  });
});
