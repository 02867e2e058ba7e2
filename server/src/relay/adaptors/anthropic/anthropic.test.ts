import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { anthropicMockKey, startAnthropicMock } from '../../../../test/mock-upstreams/anthropic.js';
import { fixture, type MockUpstream, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import { UpstreamError } from '../../upstream-error.js';
import { withClaudeOriginal } from './claude-original.js';
import { buildAnthropicRequest, toClaudeRequest } from './request.js';
import { readAnthropicError, readAnthropicResponse } from './response.js';
import { readAnthropicStream } from './stream.js';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

const chat = (body: Record<string, unknown>, baseUrl = 'http://127.0.0.1:9') =>
  relayCall({ body: { model: 'claude-3-5-sonnet-20241022', ...body }, type: 14, key: anthropicMockKey, baseUrl });

describe('anthropic request conversion', () => {
  test('system, images, tool calls and tool results become Claude turns', () => {
    const body = toClaudeRequest({
      model: 'claude-3-5-sonnet-20241022',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: 'Answer in English.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris? And this image?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0' } },
          ],
        },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } }] },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            { id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_01B', type: 'function', function: { name: 'get_weather', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '{"temp_c":21}' },
        { role: 'tool', tool_call_id: 'toolu_01B', content: '{"temp_c":22}' },
      ],
      tools: [weatherTool as never],
      tool_choice: 'required',
      parallel_tool_calls: false,
      temperature: 1.6,
      top_p: 0.9,
      stop: 'END',
      max_completion_tokens: 300,
      user: 'u-1',
    });
    expect(body.system).toBe('You are terse.\nAnswer in English.');
    expect(body.max_tokens).toBe(300);
    expect(body.temperature).toBe(1);
    expect(body.stop_sequences).toEqual(['END']);
    expect(body.metadata).toEqual({ user_id: 'u-1' });
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(body.tools).toEqual([
      { name: 'get_weather', description: 'Current weather', input_schema: weatherTool.function.parameters },
    ]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Paris? And this image?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: '{"temp_c":21}' },
          { type: 'tool_result', tool_use_id: 'toolu_01B', content: '{"temp_c":22}' },
        ],
      },
    ]);
  });

  test("an OpenAI client's inline PDF (a file part) becomes a document block; other files are left out", () => {
    const pdf = 'data:application/pdf;base64,JVBERi0xLjQ=';
    const body = toClaudeRequest({
      model: 'claude-3-5-sonnet-20241022',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { filename: 'report.pdf', file_data: pdf } },
            { type: 'file', file: { file_data: pdf } },
            { type: 'file', file: { filename: 'notes.txt', file_data: 'data:text/plain;base64,aGk=' } },
            { type: 'file', file: { file_id: 'file-abc' } },
            { type: 'text', text: 'Summarise.' },
          ],
        },
      ],
    });
    const source = { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' };
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'document', source, title: 'report.pdf' },
          { type: 'document', source },
          { type: 'text', text: 'Summarise.' },
        ],
      },
    ]);
  });

  test('defaults max_tokens, drops tools for tool_choice none, maps a named tool choice', () => {
    const plain = toClaudeRequest({
      model: 'claude-2',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [weatherTool as never],
      tool_choice: 'none',
    });
    expect(plain).toEqual({
      model: 'claude-2.1',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    const named = toClaudeRequest({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [weatherTool as never],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(named.tool_choice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  test("a max_tokens the balance cut below the client's thinking budget lowers the budget, or turns thinking off", () => {
    const request = (max_tokens: number) =>
      withClaudeOriginal(
        { model: 'claude-opus-4-1', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens },
        { thinking: { type: 'enabled' as const, budget_tokens: 31_999 } },
      );
    expect(toClaudeRequest(request(32_000)).thinking).toEqual({ type: 'enabled', budget_tokens: 31_999 });
    expect(toClaudeRequest(request(20_000)).thinking).toEqual({ type: 'enabled', budget_tokens: 19_999 });
    expect(toClaudeRequest(request(1000)).thinking).toBeUndefined();
  });

  test('the upstream request carries the key, the version and the Messages URL', () => {
    const request = buildAnthropicRequest(
      chat({ messages: [{ role: 'user', content: 'hi' }], stream: true }, 'https://api.anthropic.com'),
    );
    expect(request.url).toBe('https://api.anthropic.com/v1/messages');
    expect(request.headers).toMatchObject({
      'x-api-key': anthropicMockKey,
      'anthropic-version': '2023-06-01',
      accept: 'text/event-stream',
    });
    expect(JSON.parse(String(request.body))).toMatchObject({ stream: true, model: 'claude-3-5-sonnet-20241022' });
  });

  test('an empty key is a clear channel error', () => {
    expect(() => buildAnthropicRequest(relayCall({ body: { model: 'm', messages: [] }, key: ' ' }))).toThrow(
      /key is empty/,
    );
  });
});

describe('anthropic answers', () => {
  const response = (name: string, status = 200) => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: fixtureBytes('anthropic', name),
  });

  test('a text answer becomes a chat completion with usage', () => {
    const result = readAnthropicResponse(response('message.json'), chat({ messages: [] }));
    const body = JSON.parse(result.body.toString());
    expect(body).toMatchObject({
      id: 'chatcmpl-msg_01XFDUDYJgAACzvnptvVoYEL',
      object: 'chat.completion',
      model: 'claude-3-5-sonnet-20241022',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello! How can I help you today?' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
    });
    expect(result.usage).toEqual({ prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 });
  });

  test('a tool_use answer becomes tool_calls', () => {
    const body = JSON.parse(readAnthropicResponse(response('tool-use.json'), chat({ messages: [] })).body.toString());
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls).toEqual([
      {
        id: 'toolu_01A09q90qw90lq917835lq9',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
      },
    ]);
  });

  test('errors keep the upstream type and message', () => {
    expect(readAnthropicError(response('error-rate-limit.json', 429))).toEqual({
      status: 429,
      message: 'Number of request tokens has exceeded your per-minute rate limit',
      type: 'rate_limit_error',
      param: null,
      code: 'rate_limit_error',
    });
    expect(
      readAnthropicError({ status: 502, headers: {}, body: Buffer.from('<html>bad gateway</html>') }),
    ).toMatchObject({ status: 502, code: 'bad_response_status_code' });
    expect(() => readAnthropicResponse(response('error-authentication.json'), chat({ messages: [] }))).toThrow(
      UpstreamError,
    );
  });
});

describe('anthropic streams', () => {
  test('text events become chunks with role first, finish and usage last', async () => {
    const result = await collect(
      readAnthropicStream(
        pieces(fixture('anthropic', 'stream.sse')),
        chat({ messages: [], stream: true, stream_options: { include_usage: true } }),
      ),
    );
    expect(result.content).toBe('Hello! How can I help?');
    expect(result.chunks[0].choices[0].delta.role).toBe('assistant');
    expect(result.chunks.filter((chunk) => chunk.choices[0]?.delta.role)).toHaveLength(1);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 });
    expect(result.chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 20 } });
    expect(new Set(result.chunks.map((chunk) => chunk.id)).size).toBe(1);
  });

  test('tool_use blocks become indexed tool-call deltas', async () => {
    const result = await collect(
      readAnthropicStream(pieces(fixture('anthropic', 'tool-stream.sse'), 5), chat({ messages: [], stream: true })),
    );
    expect(result.content).toBe('Checking.');
    expect(result.toolCalls).toEqual([{ id: 'toolu_01B', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.usage).toEqual({ prompt_tokens: 412, completion_tokens: 58, total_tokens: 470 });
    // Without include_usage no usage chunk is sent (billing still gets the usage).
    expect(result.chunks.every((chunk) => chunk.usage === undefined)).toBe(true);
  });

  test('an error event becomes an error chunk and ends the stream', async () => {
    const result = await collect(
      readAnthropicStream(pieces(fixture('anthropic', 'stream-error.sse')), chat({ messages: [], stream: true })),
    );
    expect(result.chunks.at(-1)).toEqual({
      error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: 'overloaded_error' },
    });
    expect(result.finishReason).toBeNull();
  });
});

describe('extended thinking and prompt caching, for OpenAI clients', () => {
  const thinkingCall = (body: Record<string, unknown>) => chat({ model: 'claude-3-7-sonnet-20250219', ...body });

  test('thinking becomes reasoning_content; cache writes and reads count as prompt tokens', () => {
    const result = readAnthropicResponse(
      { status: 200, headers: {}, body: fixtureBytes('anthropic', 'thinking-tool-use.json') },
      thinkingCall({ messages: [{ role: 'user', content: 'hi' }] }),
    );
    const completion = JSON.parse(result.body.toString());
    expect(completion).not.toHaveProperty('claude_message');
    expect(completion.choices[0].message).toEqual({
      role: 'assistant',
      content: 'Let me check the weather.',
      reasoning_content: 'The user wants the weather in Paris. I should call get_weather with city Paris.',
      tool_calls: [
        { id: 'toolu_01ThinkA', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    });
    // 18 uncached + 1250 written to the cache + 3000 read from it.
    expect(completion.usage).toEqual({
      prompt_tokens: 4268,
      completion_tokens: 96,
      total_tokens: 4364,
      prompt_tokens_details: { cached_tokens: 3000 },
      cache_creation_input_tokens: 1250,
    });
    expect(result.usage).toEqual(completion.usage);
  });

  test('a thinking stream: reasoning deltas, no Claude events, the same usage', async () => {
    const result = await collect(
      readAnthropicStream(
        pieces(fixture('anthropic', 'thinking-stream.sse')),
        thinkingCall({ messages: [], stream: true, stream_options: { include_usage: true } }),
      ),
    );
    expect(result.chunks.some((chunk) => 'claude_event' in chunk)).toBe(false);
    expect(result.reasoning).toBe('The user wants the weather in Paris. I should call get_weather.');
    expect(result.content).toBe('Let me check the weather.');
    expect(result.toolCalls).toEqual([{ id: 'toolu_01ThinkB', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
    expect(result.usage).toEqual({
      prompt_tokens: 4268,
      completion_tokens: 96,
      total_tokens: 4364,
      prompt_tokens_details: { cached_tokens: 3000 },
      cache_creation_input_tokens: 1250,
    });
  });
});

describe('server tool answers (web search) in the OpenAI conversion', () => {
  const webSearchCall = (body: Record<string, unknown>) => chat({ messages: [], ...body });

  test('the search blocks stay out of the chat completion; the searches ride on its usage', () => {
    const result = readAnthropicResponse(
      { status: 200, headers: {}, body: fixtureBytes('anthropic', 'web-search.json') },
      webSearchCall({}),
    );
    const body = JSON.parse(result.body.toString());
    expect(body.choices[0].message).toEqual({
      role: 'assistant',
      content: "I'll search for that.Claude Shannon was born on April 30, 1916, in Petoskey, Michigan.",
    });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(result.usage).toEqual({
      prompt_tokens: 6039,
      completion_tokens: 931,
      total_tokens: 6970,
      web_search_requests: 2,
    });
  });

  test('streamed: no tool call for the server tool, the text around it, the last usage with its searches', async () => {
    const result = await collect(
      readAnthropicStream(
        pieces(fixture('anthropic', 'web-search-stream.sse'), 7),
        webSearchCall({ stream: true, stream_options: { include_usage: true } }),
      ),
    );
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toBe("I'll check the weather in Paris.It is sunny in Paris, 21 °C.");
    expect(result.finishReason).toBe('stop');
    // message_delta's counts are the whole turn's (the search results are input too).
    expect(result.usage).toEqual({
      prompt_tokens: 10682,
      completion_tokens: 510,
      total_tokens: 11192,
      web_search_requests: 1,
    });
  });
});

describe('anthropic mock upstream', () => {
  let mock: MockUpstream;
  beforeAll(async () => (mock = await startAnthropicMock()));
  afterAll(() => mock.close());

  test('accepts our request and replays the answer', async () => {
    const call = chat(
      {
        messages: [
          { role: 'system', content: 'terse' },
          { role: 'user', content: 'hi' },
        ],
        tools: [weatherTool],
      },
      mock.url,
    );
    const answer = await sendWhole(buildAnthropicRequest(call));
    expect(answer.status).toBe(200);
    expect(JSON.parse(readAnthropicResponse(answer, call).body.toString()).choices[0].finish_reason).toBe('tool_calls');
    expect(mock.requests.at(-1)?.json).toMatchObject({ system: 'terse', tools: [{ name: 'get_weather' }] });
  });

  test('rejects a wrong key like Anthropic', async () => {
    const answer = await sendWhole(
      buildAnthropicRequest(
        relayCall({
          body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
          key: 'wrong',
          baseUrl: mock.url,
        }),
      ),
    );
    expect(answer.status).toBe(401);
    expect(readAnthropicError(answer)).toMatchObject({ type: 'authentication_error', message: 'invalid x-api-key' });
  });
});
