import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anthropicMockKey, startAnthropicMock } from '../../../test/mock-upstreams/anthropic.js';
import { startMockUpstream, type MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { balances, createChannel, createToken, createUser, setOption } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { droppedHeader } from '../../relay/fronts/dropped-header.js';

const recordedChatStream = (name: string) =>
  readFileSync(new URL(`../../relay/fronts/responses/__fixtures__/${name}`, import.meta.url), 'utf8');

const usage = {
  prompt_tokens: 37,
  completion_tokens: 11,
  total_tokens: 48,
  prompt_tokens_details: { cached_tokens: 32 },
};

/** A loopback OpenAI chat upstream: recorded streams, a JSON answer when a schema is asked for, text otherwise. */
const startChatMock = () =>
  startMockUpstream(async (request, reply) => {
    const body = request.json as {
      stream?: boolean;
      tools?: unknown[];
      response_format?: { type: string };
      max_tokens?: number;
    };
    if (body.stream && JSON.stringify(body).includes('cut me off'))
      // The upstream dies mid-answer: two chunks, then the connection closes without [DONE].
      return reply.stream(
        'text/event-stream',
        [{ role: 'assistant', content: 'Half' }, { content: ' an answer' }]
          .map(
            (delta) =>
              `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
          )
          .join(''),
      );
    if (body.stream && body.max_tokens)
      // The model hits the output limit: OpenAI stops with finish_reason length and still reports usage.
      return reply.stream(
        'text/event-stream',
        [
          { choices: [{ index: 0, delta: { role: 'assistant', content: 'Once upon' }, finish_reason: 'length' }] },
          {
            choices: [],
            usage: { prompt_tokens: 20, completion_tokens: body.max_tokens, total_tokens: 20 + body.max_tokens },
          },
        ]
          .map(
            (chunk) =>
              `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1', ...chunk })}\n\n`,
          )
          .join('')
          .concat('data: [DONE]\n\n'),
      );
    if (body.stream)
      return reply.stream(
        'text/event-stream',
        recordedChatStream(body.tools ? 'chat-function-call-stream.sse' : 'chat-text-stream.sse'),
      );
    const content = body.response_format?.type === 'json_schema' ? '{"city":"Paris"}' : 'Hi there! How can I help?';
    return reply.json(200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4.1',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage,
    });
  });

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current temperature of a place',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  strict: false,
};

describe('Responses API front (POST /v1/responses) on an OpenAI chat channel', () => {
  let upstream: MockUpstream;
  let server: TestServer;
  let client: OpenAI;
  let userId: number;
  let tokenId: number;
  let channelId: number;

  beforeAll(async () => {
    upstream = await startChatMock();
    server = await startTestServer();
    await setOption(server, 'ModelRatio', JSON.stringify({ 'gpt-4.1': 1, 'gpt-5-codex': 1 }));
    await setOption(server, 'CompletionRatio', JSON.stringify({ 'gpt-4.1': 4, 'gpt-5-codex': 4 }));
    // Its config makes the OpenAI channel convert Responses to chat (natively served calls: responses-native).
    channelId = (
      await createChannel(server, {
        type: 1,
        base_url: upstream.url,
        models: 'gpt-4.1,gpt-5-codex',
        config: JSON.stringify({ responses_api: 'chat' }),
      })
    ).id;
    userId = await createUser(server, { username: 'codex', quota: 1_000_000 });
    const token = await createToken(server, userId);
    tokenId = token.id;
    client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  const lastUpstreamBody = () => upstream.requests.at(-1)!.json as Record<string, unknown>;
  test('a plain response, billed from the upstream usage and stored', async () => {
    const before = await balances(server, userId, tokenId, channelId);
    const response = await client.responses.create({ model: 'gpt-4.1', instructions: 'Be brief.', input: 'hi' });
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-4.1' });
    expect(response.output_text).toBe('Hi there! How can I help?');
    expect(response.usage).toMatchObject({
      input_tokens: 37,
      output_tokens: 11,
      total_tokens: 48,
      input_tokens_details: { cached_tokens: 32 },
    });
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
    const after = await balances(server, userId, tokenId, channelId);
    // 37 prompt tokens + 11 completion tokens at a completion ratio of 4.
    expect(after.userUsed - before.userUsed).toBe(37 + 11 * 4);
    expect(after.consumeLogs - before.consumeLogs).toBe(1);
    const stored = await client.responses.retrieve(response.id);
    expect(stored.output).toEqual(response.output);
    expect(stored.instructions).toBe('Be brief.');
  });

  test('a streamed response: events in order, the final response, billing', async () => {
    const before = await balances(server, userId, tokenId);
    const stream = client.responses.stream({ model: 'gpt-4.1', input: 'hi' });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Hi there! How can I help?');
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(final.usage).toMatchObject({ input_tokens: 37, output_tokens: 11 });
    expect((await balances(server, userId, tokenId)).userUsed - before.userUsed).toBe(37 + 11 * 4);
    expect((await client.responses.retrieve(final.id)).output_text).toBe('Hi there! How can I help?');
  });

  test('a stream cut by max_output_tokens ends in response.incomplete and is billed from its usage', async () => {
    const before = await balances(server, userId, tokenId);
    const stream = await client.responses.create({
      model: 'gpt-4.1',
      input: 'a story',
      max_output_tokens: 3,
      stream: true,
    });
    let last: OpenAI.Responses.ResponseStreamEvent | undefined;
    for await (const event of stream) last = event;
    expect(last).toMatchObject({
      type: 'response.incomplete',
      response: {
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        usage: { output_tokens: 3 },
      },
    });
    expect((await balances(server, userId, tokenId)).userUsed - before.userUsed).toBe(20 + 3 * 4);
  });

  test('an upstream that breaks off mid-stream: response.failed with the text so far, still billed', async () => {
    const before = await balances(server, userId, tokenId);
    const stream = await client.responses.create({ model: 'gpt-4.1', input: 'cut me off', stream: true });
    const types: string[] = [];
    let last: OpenAI.Responses.ResponseStreamEvent | undefined;
    for await (const event of stream) {
      types.push(event.type);
      last = event;
    }
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.failed',
    ]);
    expect(last).toMatchObject({
      response: {
        status: 'failed',
        error: { code: 'server_error' },
        output: [{ status: 'incomplete', content: [{ text: 'Half an answer' }] }],
      },
    });
    // The upstream reported no usage: the relay bills what it counted itself, never nothing.
    expect((await balances(server, userId, tokenId)).userUsed - before.userUsed).toBeGreaterThan(0);
  });

  test('tools: the function call streams back; a built-in tool is dropped and named in a header', async () => {
    const { data: stream, response } = await client.responses
      .create({
        model: 'gpt-4.1',
        input: 'weather in Paris?',
        tools: [weatherTool, { type: 'web_search' }],
        stream: true,
      })
      .withResponse();
    expect(response.headers.get(droppedHeader)).toBe('tools.1 (web_search)');
    let final: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') final = event.response;
    expect(final?.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        name: 'get_weather',
        arguments: '{"location":"Paris, France"}',
      }),
    ]);
    expect(lastUpstreamBody().tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: weatherTool.description,
          parameters: weatherTool.parameters,
          strict: false,
        },
      },
    ]);
  });

  test('text.format json_schema becomes response_format', async () => {
    const response = await client.responses.create({
      model: 'gpt-4.1',
      input: 'where?',
      text: { format: { type: 'json_schema', name: 'place', schema: { type: 'object' }, strict: true } },
    });
    expect(JSON.parse(response.output_text)).toEqual({ city: 'Paris' });
    expect(lastUpstreamBody().response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'place', schema: { type: 'object' }, strict: true },
    });
  });

  test('previous_response_id continues the stored conversation; input_items, delete and store:false', async () => {
    const first = await client.responses.create({ model: 'gpt-4.1', input: 'my name is Ada' });
    const second = await client.responses.create({
      model: 'gpt-4.1',
      input: 'what is my name?',
      previous_response_id: first.id,
    });
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'user', content: 'my name is Ada' },
      { role: 'assistant', content: 'Hi there! How can I help?' },
      { role: 'user', content: 'what is my name?' },
    ]);
    const items = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(items.data.map((item) => item.type)).toEqual(['message', 'message', 'message']);
    expect(items.data.every((item) => typeof item.id === 'string')).toBe(true);
    expect(await client.responses.delete(second.id)).toMatchObject({ id: second.id, deleted: true });
    await expect(client.responses.retrieve(second.id)).rejects.toMatchObject({ status: 404 });

    const unstored = await client.responses.create({ model: 'gpt-4.1', input: 'x', store: false });
    await expect(client.responses.retrieve(unstored.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      client.responses.create({ model: 'gpt-4.1', input: 'x', previous_response_id: unstored.id }),
    ).rejects.toMatchObject({ status: 400 });
  });

  test("Codex CLI 0.169's first request streams to the end; its namespace and web_search tools are named as dropped", async () => {
    const codexRequest = readFileSync(
      new URL('../../relay/fronts/responses/__fixtures__/codex-0.169.0-request.json', import.meta.url),
      'utf8',
    );
    const response = await fetch(`${server.url}/v1/responses`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${client.apiKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: codexRequest,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get(droppedHeader)).toBe('tools.1 (namespace multi_agent_v1),tools.2 (web_search)');
    const text = await response.text();
    expect(text).toMatch(/^event: response\.created\n/);
    expect(text).toMatch(/event: response\.completed\ndata: [^\n]+\n\n$/);
    expect(lastUpstreamBody()).toMatchObject({ model: 'gpt-5-codex', stream: true, tool_choice: 'auto' });
  });

  test('a request that cannot be converted is refused with the field in param', async () => {
    const refusal = await client.responses
      .create({
        model: 'gpt-4.1',
        input: [{ role: 'user', content: [{ type: 'input_audio' } as never] }],
      })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, param: 'input.0.content.0.type' });
  });
});

describe('Responses API front on a Claude channel', () => {
  let claude: MockUpstream;
  let server: TestServer;
  let client: OpenAI;

  beforeAll(async () => {
    claude = await startAnthropicMock();
    server = await startTestServer();
    await setOption(server, 'ModelRatio', JSON.stringify({ 'claude-3-5-sonnet-20241022': 1 }));
    await createChannel(server, {
      type: 14,
      key: anthropicMockKey,
      base_url: claude.url,
      models: 'claude-3-5-sonnet-20241022',
    });
    const userId = await createUser(server, { username: 'codex-on-claude', quota: 1_000_000 });
    const token = await createToken(server, userId);
    client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await claude?.close();
  });

  test('a plain turn, then a tool loop continued by previous_response_id and streamed', async () => {
    const model = 'claude-3-5-sonnet-20241022';
    const first = await client.responses.create({ model, instructions: 'Be brief.', input: 'hi' });
    expect(first.output_text).toBe('Hello! How can I help you today?');
    expect(first.usage).toMatchObject({ input_tokens: 12, output_tokens: 10 });
    const claudeBody = () => claude.requests.at(-1)!.json as { system?: unknown; messages: { role: string }[] };
    expect(claudeBody().system).toBeDefined();

    const call = await client.responses.create({ model, input: 'weather in Paris?', tools: [weatherTool] });
    const functionCall = call.output.find((item) => item.type === 'function_call');
    expect(functionCall).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' });

    // The tool's output continues the stored turn: Claude gets tool_use then its tool_result, as it requires.
    const stream = client.responses.stream({
      model,
      previous_response_id: call.id,
      input: [{ type: 'function_call_output', call_id: functionCall!.call_id, output: '18C' }],
      tools: [weatherTool],
    });
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(claudeBody().messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });
});
