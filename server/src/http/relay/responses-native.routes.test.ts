import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { anthropicMockKey, startAnthropicMock } from '../../../test/mock-upstreams/anthropic.js';
import { startMockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import {
  openAIResponsesMockKey,
  startOpenAIResponsesMock,
  type MockAnswer,
} from '../../../test/mock-upstreams/openai-responses.js';
import {
  balances,
  chargesDuring,
  createChannel,
  createToken,
  createUser,
  setOption,
} from '../../../test/relay-fixtures.js';
import { startedForSuite } from '../../../test/suite-lifecycle.js';
import { startTestServer } from '../../../test/test-server.js';
import { responseExpiryJob } from '../../jobs/response-expiry.job.js';
import { droppedHeader } from '../../relay/fronts/dropped-header.js';

type Json = Record<string, unknown>;

const plainAnswer: MockAnswer = {
  output: [{ type: 'message', text: 'Hello from the Responses API.' }],
  usage: { input: 40, output: 7, cached: 32 },
};
/** The answer the mock gives next (then the plain one again). */
let nextAnswer: MockAnswer | undefined;
const answerWith = (answer: MockAnswer) => {
  nextAnswer = answer;
};

const claudeModel = 'claude-3-5-sonnet-20241022';

/** A gateway with an OpenAI channel (Responses natively), and per group: Azure, a marked Custom, Claude. */
async function startGateway() {
  const responsesApi = await startOpenAIResponsesMock(() => {
    const answer = nextAnswer ?? plainAnswer;
    nextAnswer = undefined;
    return answer;
  });
  // A chat-only upstream, for the OpenAI-protocol channels that are not marked as speaking Responses.
  const chatApi = await startMockUpstream((request, reply) => {
    const head = { id: 'chatcmpl-1', created: 1, model: 'gpt-4.1' };
    const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
    if (!request.json?.stream)
      return reply.json(200, {
        ...head,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Converted to chat.' }, finish_reason: 'stop' }],
        usage,
      });
    const chunks = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: 'Converted to chat.' }, finish_reason: 'stop' }] },
      { choices: [], usage },
    ].map((chunk) => `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...chunk })}\n\n`);
    return reply.stream('text/event-stream', `${chunks.join('')}data: [DONE]\n\n`);
  });
  const claude = await startAnthropicMock();
  const server = await startTestServer();
  await setOption(server, 'ModelRatio', JSON.stringify({ 'gpt-4.1': 1, [claudeModel]: 1 }));
  await setOption(server, 'CompletionRatio', JSON.stringify({ 'gpt-4.1': 4, [claudeModel]: 5 }));
  const channel = (fields: Parameters<typeof createChannel>[1]) => createChannel(server, fields);
  const openaiChannel = await channel({
    type: 1,
    key: openAIResponsesMockKey,
    base_url: responsesApi.url,
    models: 'gpt-4.1',
  });
  await channel({ type: 14, key: anthropicMockKey, base_url: claude.url, models: claudeModel });
  await channel({
    type: 3,
    group: 'azure',
    key: openAIResponsesMockKey,
    base_url: responsesApi.url,
    models: 'gpt-4.1',
  });
  await channel({
    type: 8,
    group: 'marked',
    key: openAIResponsesMockKey,
    base_url: responsesApi.url,
    models: 'gpt-4.1',
    config: JSON.stringify({ responses_api: 'native' }),
  });
  await channel({ type: 8, group: 'unmarked', base_url: chatApi.url, models: 'gpt-4.1' });
  await channel({
    type: 1,
    group: 'prompted',
    key: openAIResponsesMockKey,
    base_url: responsesApi.url,
    models: 'gpt-4.1',
    system_prompt: 'You are the channel.',
  });
  /** A user of the group with a client of its own. */
  const member = async (group = 'default') => {
    const userId = await createUser(server, { username: `native-${group}-${Math.random()}`, group, quota: 10_000_000 });
    const token = await createToken(server, userId);
    const client = new OpenAI({ apiKey: `sk-${token.key}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    return { userId, tokenId: token.id, client, key: `sk-${token.key}` };
  };
  return {
    server,
    responsesApi,
    chatApi,
    claude,
    openaiChannel,
    member,
    async close() {
      await server.close();
      await Promise.all([responsesApi.close(), chatApi.close(), claude.close()]);
    },
  };
}

describe('the Responses API natively on channels that speak it', () => {
  const gateway = startedForSuite(startGateway);
  const upstreamBody = () => gateway.responsesApi.requests.at(-1)!.json!;
  /** What the user paid and the consume logs written during `run`. */
  async function charged(member: { userId: number; tokenId: number }, run: () => Promise<unknown>) {
    const before = await balances(gateway.server, member.userId, member.tokenId);
    await run();
    const after = await balances(gateway.server, member.userId, member.tokenId);
    return { quota: after.userUsed - before.userUsed, logs: after.consumeLogs - before.consumeLogs };
  }

  test('a request goes upstream as sent (built-in tools too), comes back under the gateway id, billed from its usage', async () => {
    const member = await gateway.member();
    let reply: { data: OpenAI.Responses.Response; response: Response } | undefined;
    const bill = await charged(member, async () => {
      reply = await member.client.responses
        .create({
          model: 'gpt-4.1',
          instructions: 'Be brief.',
          input: 'hi',
          tools: [{ type: 'web_search' }, { type: 'code_interpreter', container: { type: 'auto' } }],
          include: ['web_search_call.action.sources'],
          metadata: { ticket: '42' },
        })
        .withResponse();
    });
    const { data: response, response: http } = reply!;
    expect(gateway.responsesApi.requests.at(-1)!.path).toBe('/v1/responses');
    expect(upstreamBody()).toEqual({
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      input: 'hi',
      tools: [{ type: 'web_search' }, { type: 'code_interpreter', container: { type: 'auto' } }],
      include: ['web_search_call.action.sources'],
      metadata: { ticket: '42' },
      store: false,
    });
    expect(http.headers.get(droppedHeader)).toBeNull();
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(response).toMatchObject({ status: 'completed', store: true, previous_response_id: null });
    expect(response.output_text).toBe('Hello from the Responses API.');
    expect(response.usage).toMatchObject({
      input_tokens: 40,
      output_tokens: 7,
      input_tokens_details: { cached_tokens: 32 },
    });
    // The 32 cached tokens are part of the 40 input tokens: billed once, at the input price, and noted.
    expect(bill).toEqual({ quota: 40 + 7 * 4, logs: 1 });
    const log = await gateway.server.context.logDatabase.db
      .selectFrom('logs')
      .select(['prompt_tokens', 'completion_tokens', 'content'])
      .where('user_id', '=', member.userId)
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ prompt_tokens: 40, completion_tokens: 7 });
    expect(log.content).toContain('缓存读取 32 tokens');
    expect((await member.client.responses.retrieve(response.id)).output).toEqual(response.output);
  });

  test('a stream is sent on event for event, with the response objects made the gateway own', async () => {
    const member = await gateway.member();
    answerWith({
      output: [
        { type: 'reasoning', summary: 'Search first.', encryptedContent: 'gAAAA-sealed' },
        { type: 'web_search_call', query: 'weather Paris' },
        { type: 'message', text: 'It is 18°C in Paris.' },
      ],
      usage: { input: 120, output: 45, cached: 100, reasoning: 30 },
    });
    const received: Json[] = [];
    const bill = await charged(member, async () => {
      const stream = await member.client.responses.create({
        model: 'gpt-4.1',
        input: 'weather in Paris?',
        tools: [{ type: 'web_search' }],
        reasoning: { effort: 'low', summary: 'auto' },
        include: ['reasoning.encrypted_content'],
        stream: true,
      });
      for await (const event of stream) received.push(event as unknown as Json);
    });
    const sent = gateway.responsesApi.sentEvents.at(-1)!;
    expect(received.map((event) => event.type)).toEqual(sent.map((event) => event.type));
    expect(received.map((event) => event.sequence_number)).toEqual(sent.map((event) => event.sequence_number));
    const { id: gatewayId, created_at: createdAt } = received[0]!.response as { id: string; created_at: number };
    received.forEach((event, index) => {
      const upstream = sent[index]!;
      if (!upstream.response) return expect(event).toEqual(upstream);
      const own = { id: gatewayId, created_at: createdAt, store: true, previous_response_id: null };
      expect(event).toEqual({ ...upstream, response: { ...(upstream.response as Json), ...own } });
    });
    expect(received.map((event) => event.type)).toContain('response.web_search_call.searching');
    // The web_search_call is one search, at WebSearchPrice ($10 per 1,000 searches: 5,000 units).
    expect(bill).toEqual({ quota: 120 + 45 * 4 + 5000, logs: 1 });
    const stored = await member.client.responses.retrieve(gatewayId);
    expect(stored.output.map((item) => item.type)).toEqual(['reasoning', 'web_search_call', 'message']);
  });

  test('incomplete and failed answers, whole and streamed, are billed from the usage they report', async () => {
    const member = await gateway.member();
    const incomplete: MockAnswer = {
      output: [{ type: 'message', text: 'Once upon' }],
      status: 'incomplete',
      usage: { input: 20, output: 3 },
    };
    const failed: MockAnswer = {
      output: [],
      status: 'failed',
      usage: { input: 25, output: 0 },
      error: { code: 'server_error', message: 'The model failed to generate a response.' },
    };
    for (const stream of [false, true]) {
      answerWith(incomplete);
      let last: Json | undefined;
      const cut = await charged(member, async () => {
        const answer = await member.client.responses.create({
          model: 'gpt-4.1',
          input: 'a story',
          max_output_tokens: 3,
          stream,
        });
        if (!stream) last = { type: 'whole', response: answer };
        else for await (const event of answer as AsyncIterable<unknown>) last = event as Json;
      });
      expect(last!.response).toMatchObject({
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
      });
      expect(cut).toEqual({ quota: 20 + 3 * 4, logs: 1 });

      answerWith(failed);
      const broken = await charged(member, async () => {
        const answer = await member.client.responses.create({ model: 'gpt-4.1', input: 'x', stream });
        if (!stream) last = { type: 'whole', response: answer };
        else for await (const event of answer as AsyncIterable<unknown>) last = event as Json;
      });
      expect(last!.response).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
      expect(broken).toEqual({ quota: 25, logs: 1 });
    }
  });

  test('an upstream that breaks off mid-stream: response.failed with the finished items, in sequence, still billed', async () => {
    const member = await gateway.member();
    answerWith({
      output: [
        { type: 'message', text: 'First part.' },
        { type: 'message', text: 'Second part.' },
      ],
      usage: { input: 30, output: 10 },
      // created, in_progress and the first message's eight events: cut before the second message starts.
      cutAfterEvents: 10,
    });
    const received: Json[] = [];
    const bill = await charged(member, async () => {
      const stream = await member.client.responses.create({ model: 'gpt-4.1', input: 'two parts', stream: true });
      for await (const event of stream) received.push(event as unknown as Json);
    });
    const last = received.at(-1)!;
    expect(last).toMatchObject({
      type: 'response.failed',
      sequence_number: 10,
      response: { status: 'failed', error: { code: 'server_error' }, output: [{ type: 'message' }] },
    });
    expect(received.map((event) => event.sequence_number)).toEqual(received.map((_, index) => index));
    // No usage came: the relay counted the prompt and the text itself.
    expect(bill.logs).toBe(1);
    expect(bill.quota).toBeGreaterThan(0);
  });

  test('previous_response_id is expanded by the gateway: the upstream gets the conversation, store:false, no id', async () => {
    const member = await gateway.member();
    const tool = {
      type: 'function' as const,
      name: 'get_weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      strict: false,
    };
    answerWith({
      output: [
        { type: 'reasoning', summary: 'Need the weather.' },
        { type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', callId: 'call_paris' },
      ],
      usage: { input: 50, output: 12 },
    });
    const first = await member.client.responses.create({ model: 'gpt-4.1', input: 'weather in Paris?', tools: [tool] });
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    const second = await member.client.responses.create({
      model: 'gpt-4.1',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: 'call_paris', output: '18C' }],
      tools: [tool],
    });
    expect(second.previous_response_id).toBe(first.id);
    const body = upstreamBody();
    expect(body.previous_response_id).toBeUndefined();
    expect(body.store).toBe(false);
    // The reasoning item had no encrypted content: with nothing stored upstream it cannot be read back.
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'weather in Paris?' }] },
      {
        type: 'function_call',
        status: 'completed',
        arguments: '{"city":"Paris"}',
        call_id: 'call_paris',
        name: 'get_weather',
      },
      { type: 'function_call_output', call_id: 'call_paris', output: '18C' },
    ]);
  });

  test("item_reference (the AI SDK's way to send an earlier output item again) is resolved from the stored responses", async () => {
    const member = await gateway.member();
    const first = await member.client.responses.create({ model: 'gpt-4.1', input: 'hi' });
    const messageId = first.output[0]!.id!;
    const input = [
      { type: 'item_reference' as const, id: messageId },
      { role: 'user' as const, content: 'and then?' },
    ];
    await member.client.responses.create({ model: 'gpt-4.1', input });
    expect(upstreamBody().input).toEqual([
      {
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello from the Responses API.', annotations: [], logprobs: [] }],
      },
      { role: 'user', content: 'and then?' },
    ]);
    // Converted for Claude, the referenced item is the assistant's turn.
    await member.client.responses.create({ model: claudeModel, input });
    const turns = gateway.claude.requests.at(-1)!.json!.messages as { role: string }[];
    expect(turns.map((turn) => turn.role)).toEqual(['assistant', 'user']);
    const stranger = await gateway.member();
    await expect(stranger.client.responses.create({ model: 'gpt-4.1', input })).rejects.toMatchObject({
      status: 400,
      param: 'input.0.id',
    });
  });

  test('what only OpenAI reads (a file by id) goes to native channels alone; elsewhere it is refused naming the field', async () => {
    const member = await gateway.member();
    const input = [
      {
        role: 'user' as const,
        content: [
          { type: 'input_text' as const, text: 'what is in it?' },
          { type: 'input_image' as const, file_id: 'file-abc', detail: 'auto' as const },
        ],
      },
    ];
    const response = await member.client.responses.create({ model: 'gpt-4.1', input });
    expect(response.output_text).toBe('Hello from the Responses API.');
    expect(upstreamBody().input).toEqual(input);
    await expect(member.client.responses.create({ model: claudeModel, input })).rejects.toMatchObject({
      status: 400,
      param: 'input.0.content.1.image_url',
    });
  });

  test("a client's own reasoning items go upstream as it sent them (Codex: content null, encrypted content)", async () => {
    const member = await gateway.member();
    const input = [
      { type: 'reasoning', id: 'rs_1', summary: [], content: null, encrypted_content: 'gAAAA-sealed' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go on' }] },
    ];
    const answer = await fetch(`${gateway.server.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', input, store: false }),
    });
    expect(answer.status).toBe(200);
    expect(upstreamBody().input).toEqual(input);
  });

  test('text.format json_schema goes upstream as sent and the JSON comes back', async () => {
    const member = await gateway.member();
    answerWith({ output: [{ type: 'message', text: '{"city":"Paris"}' }], usage: { input: 10, output: 5 } });
    const format = {
      type: 'json_schema' as const,
      name: 'place',
      schema: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
      strict: true,
    };
    const response = await member.client.responses.parse({ model: 'gpt-4.1', input: 'where?', text: { format } });
    expect(upstreamBody().text).toEqual({ format });
    expect(response.output_parsed).toEqual({ city: 'Paris' });
  });

  test('a conversation moves between channels: Claude (converted), then OpenAI (native), then Claude again', async () => {
    const member = await gateway.member();
    const onClaude = await member.client.responses.create({ model: claudeModel, input: 'my name is Ada' });
    expect(onClaude.output_text).toBe('Hello! How can I help you today?');
    const onOpenAI = await member.client.responses.create({
      model: 'gpt-4.1',
      previous_response_id: onClaude.id,
      input: 'what is my name?',
    });
    expect(onOpenAI.output_text).toBe('Hello from the Responses API.');
    expect(upstreamBody().input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'my name is Ada' }] },
      {
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello! How can I help you today?', annotations: [], logprobs: [] }],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what is my name?' }] },
    ]);
    await member.client.responses.create({ model: claudeModel, previous_response_id: onOpenAI.id, input: 'thanks' });
    const claudeTurns = (gateway.claude.requests.at(-1)!.json!.messages as { role: string; content: unknown }[]).map(
      (turn) => [turn.role, JSON.stringify(turn.content)],
    );
    expect(claudeTurns.map(([role]) => role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(claudeTurns[3]![1]).toContain('Hello from the Responses API.');
  });

  test("a channel's own system prompt stands in for the instructions", async () => {
    const member = await gateway.member('prompted');
    await member.client.responses.create({ model: 'gpt-4.1', instructions: 'Be brief.', input: 'hi' });
    expect(upstreamBody()).toMatchObject({ instructions: 'You are the channel.', input: 'hi' });
  });

  test('Azure: the v1 Responses endpoint with its api-key header and the deployment as model', async () => {
    const member = await gateway.member('azure');
    const response = await member.client.responses.create({ model: 'gpt-4.1', input: 'hi' });
    expect(response.output_text).toBe('Hello from the Responses API.');
    const request = gateway.responsesApi.requests.at(-1)!;
    expect(request.path).toBe('/openai/v1/responses');
    expect(request.headers['api-key']).toBe(openAIResponsesMockKey);
    expect(request.json).toMatchObject({ model: 'gpt-41', input: 'hi', store: false });
  });

  test('an OpenAI-protocol channel gets Responses natively only when its config says responses_api: native', async () => {
    const marked = await gateway.member('marked');
    const native = await marked.client.responses.create({
      model: 'gpt-4.1',
      input: 'hi',
      tools: [{ type: 'web_search' }],
    });
    expect(native.output_text).toBe('Hello from the Responses API.');
    expect(gateway.responsesApi.requests.at(-1)!.json).toMatchObject({ tools: [{ type: 'web_search' }] });

    const unmarked = await gateway.member('unmarked');
    const { data: converted, response } = await unmarked.client.responses
      .create({ model: 'gpt-4.1', input: 'hi', tools: [{ type: 'web_search' }] })
      .withResponse();
    expect(converted.output_text).toBe('Converted to chat.');
    expect(gateway.chatApi.requests.at(-1)!.path).toBe('/v1/chat/completions');
    expect(response.headers.get(droppedHeader)).toBe('tools.0 (web_search)');
  });

  test('after a first channel fails (500), x-modelgate-dropped describes the channel that answered', async () => {
    const { server, responsesApi, chatApi } = gateway;
    await setOption(server, 'RetryTimes', '1');
    try {
      // Per group, a channel of one kind in front (it fails once) and one of the other behind it.
      const channel = (kind: 'native' | 'chat', group: string, priority: number) =>
        createChannel(server, {
          type: kind === 'native' ? 1 : 8,
          group,
          key: openAIResponsesMockKey,
          base_url: kind === 'native' ? responsesApi.url : chatApi.url,
          models: 'gpt-4.1',
          priority,
        });
      const nativeFirst = await channel('native', 'native-then-chat', 5);
      const chatBehind = await channel('chat', 'native-then-chat', 0);
      const chatFirst = await channel('chat', 'chat-then-native', 5);
      const nativeBehind = await channel('native', 'chat-then-native', 0);
      const serverError = {
        error: { message: 'The server had an error', type: 'server_error', param: null, code: null },
      };
      const request = { model: 'gpt-4.1', input: 'hi', tools: [{ type: 'web_search' as const }] };

      // The OpenAI channel got the Responses request and failed; the chat channel answered without web_search.
      const toChat = await gateway.member('native-then-chat');
      let whole: Response | undefined;
      let streamed: Response | undefined;
      const toChatCharges = await chargesDuring(server, toChat, [nativeFirst.id, chatBehind.id], async () => {
        responsesApi.failNext(500, serverError);
        const reply = await toChat.client.responses.create(request).withResponse();
        expect(reply.data.output_text).toBe('Converted to chat.');
        whole = reply.response;
        responsesApi.failNext(500, serverError);
        const stream = await toChat.client.responses.create({ ...request, stream: true }).withResponse();
        const events: string[] = [];
        for await (const event of stream.data) events.push(event.type);
        expect(events.at(-1)).toBe('response.completed');
        streamed = stream.response;
      });
      expect(responsesApi.requests.at(-1)!.path).toBe('/v1/responses');
      expect(whole!.headers.get(droppedHeader)).toBe('tools.0 (web_search)');
      expect(streamed!.headers.get(droppedHeader)).toBe('tools.0 (web_search)');
      expect(toChatCharges.user).toBeGreaterThan(0);
      expect(toChatCharges.channels).toEqual([0, toChatCharges.user]);

      // The chat channel got a conversion and failed; the OpenAI channel got the request as sent: nothing dropped.
      const toNative = await gateway.member('chat-then-native');
      let native: Response | undefined;
      const toNativeCharges = await chargesDuring(server, toNative, [chatFirst.id, nativeBehind.id], async () => {
        chatApi.failNext(500, serverError);
        const reply = await toNative.client.responses.create(request).withResponse();
        expect(reply.data.output_text).toBe('Hello from the Responses API.');
        native = reply.response;
      });
      expect(chatApi.requests.at(-1)!.path).toBe('/v1/chat/completions');
      expect(responsesApi.requests.at(-1)!.json).toMatchObject({ tools: [{ type: 'web_search' }] });
      expect(native!.headers.get(droppedHeader)).toBeNull();
      expect(toNativeCharges.user).toBeGreaterThan(0);
      expect(toNativeCharges.channels).toEqual([0, toNativeCharges.user]);
    } finally {
      await setOption(server, 'RetryTimes', '0');
    }
  });

  test('background is refused; cancel answers as OpenAI does for a response that was not created in the background', async () => {
    const member = await gateway.member();
    await expect(
      member.client.responses.create({ model: 'gpt-4.1', input: 'hi', background: true }),
    ).rejects.toMatchObject({ status: 400, param: 'background' });
    const response = await member.client.responses.create({ model: 'gpt-4.1', input: 'hi' });
    const refusal = await member.client.responses.cancel(response.id).catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      status: 400,
      error: {
        message: 'Only responses created with background=true can be cancelled.',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    await expect(member.client.responses.cancel('resp_unknown')).rejects.toMatchObject({ status: 404 });
    const stranger = await gateway.member();
    await expect(stranger.client.responses.cancel(response.id)).rejects.toMatchObject({ status: 404 });
  });

  test('the expiry job deletes responses whose retention is over; the others stay readable', async () => {
    const member = await gateway.member();
    const old = await member.client.responses.create({ model: 'gpt-4.1', input: 'old' });
    const fresh = await member.client.responses.create({ model: 'gpt-4.1', input: 'fresh' });
    const db = gateway.server.context.database.db;
    await db.updateTable('responses').set({ expires_at: 1 }).where('id', '=', old.id).execute();
    await responseExpiryJob.run(gateway.server.context, new AbortController().signal);
    const left = await db.selectFrom('responses').select('id').where('id', 'in', [old.id, fresh.id]).execute();
    expect(left.map((row) => row.id)).toEqual([fresh.id]);
    await expect(member.client.responses.retrieve(old.id)).rejects.toMatchObject({ status: 404 });
  });
});
