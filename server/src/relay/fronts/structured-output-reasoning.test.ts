import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anthropicMockKey, checkClaudeMessages } from '../../../test/mock-upstreams/anthropic.js';
import { awsMockKey, startAwsMock } from '../../../test/mock-upstreams/aws.js';
import { geminiMockKey } from '../../../test/mock-upstreams/gemini.js';
import { startMockUpstream, type MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { startVertexMock, type VertexMock } from '../../../test/mock-upstreams/vertexai.js';
import { createChannel, createToken, createUser, priceUnknownModels } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { droppedHeader } from './dropped-header.js';

/** The answer every structured call asks for, and the JSON the mocks answer with. */
const citySchema = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer' } },
  required: ['city', 'population'],
  additionalProperties: false,
};
const paris = { city: 'Paris', population: 2_102_650 };

const claudeError = (type: string, message: string) => ({ type: 'error', error: { type, message } });
const sse = (events: Record<string, unknown>[]) =>
  events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');

/**
 * A loopback Messages API that behaves as Claude does with a forced tool: it calls that tool with the answer
 * (`paris`), whole or streamed in fragments; with thinking on it thinks first. It refuses what Claude refuses:
 * a forced tool beside thinking, a budget not below max_tokens, temperature beside thinking.
 */
function startScriptedClaude(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return reply.json(401, claudeError('authentication_error', 'invalid x-api-key'));
    const body = request.json as {
      max_tokens?: number;
      messages?: unknown;
      stream?: boolean;
      tool_choice?: { type: string; name?: string };
      thinking?: { type: string; budget_tokens: number };
      temperature?: number;
    };
    const problem = checkClaudeMessages(body.messages, { systemTurns: true });
    if (problem) return reply.json(400, claudeError('invalid_request_error', problem));
    const thinking = body.thinking?.type === 'enabled';
    const forced = body.tool_choice?.type === 'tool' || body.tool_choice?.type === 'any';
    if (thinking && forced)
      return reply.json(
        400,
        claudeError('invalid_request_error', 'Thinking may not be enabled when tool_choice forces tool use.'),
      );
    if (thinking && body.thinking!.budget_tokens >= (body.max_tokens ?? 0))
      return reply.json(400, claudeError('invalid_request_error', '`max_tokens` must be greater than budget_tokens'));
    if (thinking && body.temperature !== undefined && body.temperature !== 1)
      return reply.json(400, claudeError('invalid_request_error', 'temperature may only be 1 with thinking'));
    const usage = { input_tokens: 20, output_tokens: 12 };
    const content: Record<string, unknown>[] = [];
    if (thinking) content.push({ type: 'thinking', thinking: 'Paris is the capital.', signature: 'sig' });
    if (body.tool_choice?.type === 'tool')
      content.push({ type: 'tool_use', id: 'toolu_1', name: body.tool_choice.name, input: paris });
    else content.push({ type: 'text', text: 'Paris.' });
    const stopReason = body.tool_choice?.type === 'tool' ? 'tool_use' : 'end_turn';
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5' };
    if (!body.stream)
      return reply.json(200, { ...message, content, stop_reason: stopReason, stop_sequence: null, usage });
    const json = JSON.stringify(paris);
    const events: Record<string, unknown>[] = [
      { type: 'message_start', message: { ...message, content: [], usage: { input_tokens: 20, output_tokens: 1 } } },
    ];
    content.forEach((block, index) => {
      if (block.type === 'tool_use') {
        events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
        for (const part of [json.slice(0, 9), json.slice(9)])
          events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
      } else if (block.type === 'thinking') {
        events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } });
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'thinking_delta', thinking: block.thinking },
        });
      } else {
        events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
      }
      events.push({ type: 'content_block_stop', index });
    });
    events.push(
      { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 12 } },
      { type: 'message_stop' },
    );
    return reply.stream('text/event-stream', sse(events));
  });
}

/** A loopback generateContent that answers JSON text when asked for JSON, thinking first when asked to. */
function startScriptedGemini(): Promise<MockUpstream> {
  return startMockUpstream(async (request, reply) => {
    if (request.headers['x-goog-api-key'] !== geminiMockKey)
      return reply.json(400, { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } });
    const config = (request.json as { generationConfig?: Record<string, unknown> }).generationConfig ?? {};
    const parts: Record<string, unknown>[] = [];
    if ((config.thinkingConfig as { includeThoughts?: boolean } | undefined)?.includeThoughts)
      parts.push({ text: 'Paris is the capital.', thought: true });
    parts.push({ text: config.responseMimeType === 'application/json' ? JSON.stringify(paris) : 'Paris.' });
    return reply.json(200, {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 12, totalTokenCount: 32 },
    });
  });
}

/** A loopback OpenAI chat upstream that records what it got and answers text. */
function startOpenAIRecorder(): Promise<MockUpstream> {
  return startMockUpstream(async (_request, reply) =>
    reply.json(200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-5',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Paris.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 20, completion_tokens: 12, total_tokens: 32 },
    }),
  );
}

/** What Claude Code 2.1 sends in `anthropic-beta` on its first request. */
const claudeCodeBetas = [
  'claude-code-20250219',
  'interleaved-thinking-2025-05-14',
  'fine-grained-tool-streaming-2025-05-14',
  'prompt-caching-scope-2026-01-05',
];

describe('structured output, reasoning effort and beta flags across vendors', () => {
  let server: TestServer;
  let claude: MockUpstream;
  let gemini: MockUpstream;
  let openai: MockUpstream;
  let bedrock: MockUpstream;
  let vertex: VertexMock;
  let client: OpenAI;
  let anthropicClient: Anthropic;
  let tokenKey: string;

  beforeAll(async () => {
    [claude, gemini, openai, bedrock, vertex] = await Promise.all([
      startScriptedClaude(),
      startScriptedGemini(),
      startOpenAIRecorder(),
      startAwsMock(),
      startVertexMock(),
    ]);
    server = await startTestServer();
    await priceUnknownModels(server);
    await createChannel(server, {
      type: 14,
      key: anthropicMockKey,
      base_url: claude.url,
      models: 'claude-sonnet-4-5',
      name: 'claude',
    });
    await createChannel(server, {
      type: 14,
      key: anthropicMockKey,
      base_url: claude.url,
      models: 'claude-stripped',
      model_mapping: JSON.stringify({ 'claude-stripped': 'claude-sonnet-4-5' }),
      config: JSON.stringify({ anthropic_beta_strip: 'prompt-caching-scope-2026-01-05' }),
      name: 'claude behind a proxy',
    });
    await createChannel(server, {
      type: 24,
      key: geminiMockKey,
      base_url: gemini.url,
      models: 'gemini-2.5-flash,gemini-3-pro-preview',
      name: 'gemini',
    });
    await createChannel(server, { type: 1, base_url: openai.url, models: 'gpt-5,gpt-4o', name: 'openai' });
    await createChannel(server, {
      type: 33,
      key: awsMockKey,
      base_url: bedrock.url,
      models: 'claude-3-haiku-20240307',
      name: 'bedrock',
    });
    await createChannel(server, {
      type: 33,
      key: awsMockKey,
      base_url: bedrock.url,
      models: 'claude-bedrock-all-betas',
      model_mapping: JSON.stringify({ 'claude-bedrock-all-betas': 'claude-3-haiku-20240307' }),
      config: JSON.stringify({ anthropic_beta_pass: '*' }),
      name: 'bedrock passing every flag',
    });
    await createChannel(server, {
      type: 42,
      key: `us-central1|mock-project|${JSON.stringify(vertex.serviceAccount)}`,
      base_url: vertex.url,
      models: 'claude-3-5-sonnet-v2@20241022',
      name: 'vertex',
    });
    const userId = await createUser(server, { username: 'structured', quota: 100_000_000 });
    tokenKey = (await createToken(server, userId)).key;
    client = new OpenAI({ apiKey: `sk-${tokenKey}`, baseURL: `${server.url}/v1`, maxRetries: 0 });
    anthropicClient = new Anthropic({ apiKey: `sk-${tokenKey}`, baseURL: server.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([claude, gemini, openai, bedrock, vertex].map((mock) => mock?.close()));
  });

  const lastBody = (mock: MockUpstream) => mock.requests.at(-1)!.json as Record<string, unknown>;
  const cityFormat = { type: 'json_schema' as const, json_schema: { name: 'city', schema: citySchema, strict: true } };

  describe('on an Anthropic channel', () => {
    test('chat response_format json_schema: Claude is made to call the answer tool, its input is the content', async () => {
      const completion = await client.chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'The capital of France?' }],
        response_format: cityFormat,
      });
      expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual(paris);
      expect(completion.choices[0]!.finish_reason).toBe('stop');
      expect(completion.choices[0]!.message.tool_calls).toBeUndefined();
      const sent = lastBody(claude);
      expect(sent.tools).toEqual([expect.objectContaining({ name: 'structured_answer', input_schema: citySchema })]);
      expect(sent.tool_choice).toEqual({ type: 'tool', name: 'structured_answer' });
    });

    test('the same streamed: the tool input arrives as content deltas', async () => {
      const stream = await client.chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'The capital of France?' }],
        response_format: { type: 'json_object' },
        stream: true,
      });
      let content = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        expect(chunk.choices[0]?.delta.tool_calls).toBeUndefined();
        content += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(JSON.parse(content)).toEqual(paris);
      expect(finish).toBe('stop');
      expect((lastBody(claude).tools as { input_schema: unknown }[])[0]!.input_schema).toEqual({ type: 'object' });
    });

    test('Responses text.format json_schema comes back as output_text, whole and streamed', async () => {
      const format = { type: 'json_schema' as const, name: 'city', schema: citySchema, strict: true };
      const response = await client.responses.create({
        model: 'claude-sonnet-4-5',
        input: 'The capital of France?',
        text: { format },
      });
      expect(JSON.parse(response.output_text)).toEqual(paris);
      const stream = await client.responses.create({
        model: 'claude-sonnet-4-5',
        input: 'The capital of France?',
        text: { format },
        stream: true,
      });
      let text = '';
      for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
      expect(JSON.parse(text)).toEqual(paris);
    });

    test('reasoning_effort arrives as a thinking budget within max_tokens; the thinking comes back as reasoning', async () => {
      const completion = await client.chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'The capital of France?' }],
        reasoning_effort: 'high',
      });
      expect(lastBody(claude)).toMatchObject({
        thinking: { type: 'enabled', budget_tokens: 24_576 },
        max_tokens: 24_576 + 4096,
      });
      expect((completion.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe(
        'Paris is the capital.',
      );
      await client.chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'The capital of France?' }],
        reasoning_effort: 'medium',
        max_completion_tokens: 4000,
      });
      // The client's limit stands; the budget is cut to fit below it.
      expect(lastBody(claude)).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 3999 }, max_tokens: 4000 });
    });

    test('Responses reasoning.effort with a temperature: thinking on, the temperature named as dropped', async () => {
      const { data, response } = await client.responses
        .create({
          model: 'claude-sonnet-4-5',
          input: 'The capital of France?',
          reasoning: { effort: 'low' },
          temperature: 0.3,
        })
        .withResponse();
      expect(data.output_text).toBe('Paris.');
      expect(lastBody(claude).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
      expect(lastBody(claude).temperature).toBeUndefined();
      expect(response.headers.get(droppedHeader)).toBe('temperature');
    });

    test('structured output and reasoning together: the answer tool wins, the effort is named as dropped', async () => {
      const { data, response } = await client.responses
        .create({
          model: 'claude-sonnet-4-5',
          input: 'The capital of France?',
          reasoning: { effort: 'high' },
          text: { format: { type: 'json_schema', name: 'city', schema: citySchema } },
        })
        .withResponse();
      expect(JSON.parse(data.output_text)).toEqual(paris);
      expect(lastBody(claude).thinking).toBeUndefined();
      expect(response.headers.get(droppedHeader)).toBe('reasoning_effort');
    });
  });

  describe('on a Gemini channel', () => {
    test('response_format and reasoning_effort as responseSchema and a thinking budget', async () => {
      const completion = await client.chat.completions.create({
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'The capital of France?' }],
        response_format: cityFormat,
        reasoning_effort: 'medium',
      });
      expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual(paris);
      expect((completion.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe(
        'Paris is the capital.',
      );
      expect(lastBody(gemini).generationConfig).toMatchObject({
        responseMimeType: 'application/json',
        responseSchema: { type: 'object', properties: citySchema.properties, required: citySchema.required },
        thinkingConfig: { thinkingBudget: 8192, includeThoughts: true },
      });
    });

    test('Responses text.format on Gemini 3: JSON output_text, the effort as a thinking level', async () => {
      const response = await client.responses.create({
        model: 'gemini-3-pro-preview',
        input: 'The capital of France?',
        reasoning: { effort: 'medium' },
        text: { format: { type: 'json_schema', name: 'city', schema: citySchema } },
      });
      expect(JSON.parse(response.output_text)).toEqual(paris);
      // Gemini 3 Pro has the levels low and high only.
      expect(lastBody(gemini).generationConfig).toMatchObject({
        responseMimeType: 'application/json',
        thinkingConfig: { thinkingLevel: 'high' },
      });
    });
  });

  describe('thinking budgets to OpenAI reasoning models', () => {
    test("the Anthropic front's budget_tokens as reasoning_effort; what gpt-5 refuses named", async () => {
      const { response } = await anthropicClient.messages
        .create({
          model: 'gpt-5',
          max_tokens: 20_000,
          thinking: { type: 'enabled', budget_tokens: 16_000 },
          // Sent as Claude Code's older versions do; the SDK's types no longer let it beside thinking.
          ...{ temperature: 0.5 },
          messages: [{ role: 'user', content: 'The capital of France?' }],
        })
        .withResponse();
      expect(lastBody(openai)).toMatchObject({ reasoning_effort: 'high', max_completion_tokens: 20_000 });
      expect(lastBody(openai).temperature).toBeUndefined();
      expect(response.headers.get(droppedHeader)).toBe('temperature');
    });

    test("the Gemini front's thinkingBudget as reasoning_effort; gpt-4o, which has none, named", async () => {
      const answer = await fetch(`${server.url}/v1beta/models/gpt-4o:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${tokenKey}` },
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'The capital of France?' }] }],
          generationConfig: { thinkingConfig: { thinkingBudget: 1024 } },
        }),
      });
      expect(answer.status).toBe(200);
      expect(lastBody(openai).reasoning_effort).toBeUndefined();
      expect(answer.headers.get(droppedHeader)).toBe('reasoning_effort');
      await fetch(`${server.url}/v1beta/models/gpt-5:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': `sk-${tokenKey}` },
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'The capital of France?' }] }],
          generationConfig: { thinkingConfig: { thinkingLevel: 'LOW' } },
        }),
      });
      expect(lastBody(openai).reasoning_effort).toBe('low');
    });
  });

  describe('the chat front names what a channel left out', () => {
    test('on Claude: the effort beside structured output; on gpt-5: the temperature it refuses', async () => {
      const { data, response } = await client.chat.completions
        .create({
          model: 'claude-sonnet-4-5',
          messages: [{ role: 'user', content: 'The capital of France?' }],
          response_format: cityFormat,
          reasoning_effort: 'low',
        })
        .withResponse();
      expect(JSON.parse(data.choices[0]!.message.content!)).toEqual(paris);
      expect(response.headers.get(droppedHeader)).toBe('reasoning_effort');
      const gpt5 = await client.chat.completions
        .create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], temperature: 0.5 })
        .withResponse();
      expect(lastBody(openai).temperature).toBeUndefined();
      expect(gpt5.response.headers.get(droppedHeader)).toBe('temperature');
      const plain = await client.chat.completions
        .create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
        .withResponse();
      expect(plain.response.headers.get(droppedHeader)).toBeNull();
    });
  });

  describe("Claude Code's beta flags per channel", () => {
    const ask = (model: string) =>
      anthropicClient.messages
        .create(
          { model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
          { headers: { 'anthropic-beta': claudeCodeBetas.join(',') } },
        )
        .withResponse();
    const strippedBy = (passed: string[]) =>
      claudeCodeBetas
        .filter((flag) => !passed.includes(flag))
        .map((flag) => `anthropic-beta(${flag})`)
        .join(',');

    test('Bedrock: only the flags it serves reach it (in the body), the others are named', async () => {
      const { response } = await ask('claude-3-haiku-20240307');
      expect(response.status).toBe(200);
      expect(lastBody(bedrock).anthropic_beta).toEqual(['interleaved-thinking-2025-05-14']);
      expect(response.headers.get(droppedHeader)).toBe(strippedBy(['interleaved-thinking-2025-05-14']));
    });

    test('a Bedrock channel set to pass every flag passes them all and names none', async () => {
      const { response } = await ask('claude-bedrock-all-betas');
      expect(lastBody(bedrock).anthropic_beta).toEqual(claudeCodeBetas);
      expect(response.headers.get(droppedHeader)).toBeNull();
    });

    test('Vertex: only the flags it serves reach it (in the header), the others are named', async () => {
      const { response } = await ask('claude-3-5-sonnet-v2@20241022');
      expect(response.status).toBe(200);
      const sent = vertex.requests.filter((request) => request.path.includes(':rawPredict')).at(-1)!;
      expect(sent.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
      expect(response.headers.get(droppedHeader)).toBe(strippedBy(['interleaved-thinking-2025-05-14']));
    });

    test('an Anthropic channel passes every flag but those its config strips', async () => {
      const { response: whole } = await ask('claude-sonnet-4-5');
      expect(claude.requests.at(-1)!.headers['anthropic-beta']).toBe(claudeCodeBetas.join(','));
      expect(whole.headers.get(droppedHeader)).toBeNull();
      const { response } = await ask('claude-stripped');
      const passed = claudeCodeBetas.filter((flag) => flag !== 'prompt-caching-scope-2026-01-05');
      expect(claude.requests.at(-1)!.headers['anthropic-beta']).toBe(passed.join(','));
      expect(response.headers.get(droppedHeader)).toBe('anthropic-beta(prompt-caching-scope-2026-01-05)');
    });
  });
});
