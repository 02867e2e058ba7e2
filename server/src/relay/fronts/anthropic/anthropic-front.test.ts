import { anthropicBodyProblem, anthropicMessagesBody } from '@modelgate/wire';
import { describe, expect, test } from 'vitest';
import { claudeCodeFirstRequest } from '../../../../test/claude-code-tool-loop.js';
import { parseAnthropicEvents } from '../../../../test/anthropic-events.js';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import { toClaudeRequest } from '../../adaptors/anthropic/request.js';
import { readAnthropicStream } from '../../adaptors/anthropic/stream.js';
import type { ClaudeContentBlock } from '../../adaptors/anthropic/types.js';
import type { ChatChunk, ChatCompletion } from '../../adaptors/openai-kit/chat-types.js';
import { anthropicClientHeaders } from './client-headers.js';
import { documentReaders } from './documents.js';
import { anthropicError } from './errors.js';
import { anthropicToChatRequest, droppedForOtherChannels, maxWebSearches } from './request.js';
import { chatCompletionToAnthropic } from './response.js';
import { AnthropicEventWriter } from './stream.js';

describe('anthropic front: request', () => {
  test('system, images, tool use and tool results become OpenAI messages', () => {
    const chat = anthropicToChatRequest({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 256,
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21C' }] },
            { type: 'text', text: 'and tomorrow?' },
          ],
        },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { type: 'web_search_20250305', name: 'web_search' } as never,
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      stop_sequences: ['END'],
      temperature: 0.5,
      stream: true,
      metadata: { user_id: 'u-1' },
    });
    // What an OpenAI-protocol upstream receives (the Claude originals attached for Claude upstreams are not JSON).
    expect(JSON.parse(JSON.stringify(chat))).toEqual({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 256,
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '21C' },
        { role: 'user', content: 'and tomorrow?' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
      stop: ['END'],
      temperature: 0.5,
      user: 'u-1',
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

describe('anthropic front: what it accepts', () => {
  const problem = (body: unknown) => {
    const checked = anthropicMessagesBody.safeParse(body);
    return checked.success ? undefined : anthropicBodyProblem(checked.error);
  };
  const hi = { model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

  test("Claude Code's request: system turns anywhere, unknown blocks and fields are accepted as sent", () => {
    const withNewBlock = {
      ...claudeCodeFirstRequest,
      messages: [
        ...claudeCodeFirstRequest.messages,
        { role: 'user', content: [{ type: 'search_result_2027', source: 'x', content: [] }] },
      ],
      some_field_from_2027: { on: true },
    };
    const checked = anthropicMessagesBody.safeParse(withNewBlock);
    expect(checked.success && checked.data).toEqual(withNewBlock);
  });

  test('a refusal names the field', () => {
    expect(problem({ ...hi, model: undefined })).toMatch(/^model: /);
    expect(problem({ ...hi, max_tokens: 0 })).toMatch(/^max_tokens: /);
    expect(problem({ ...hi, max_tokens: 1.5 })).toMatch(/^max_tokens: /);
    expect(problem({ ...hi, messages: [] })).toBe('messages: at least one message is required');
    expect(problem({ ...hi, messages: [{ role: 'tool', content: 'x' }] })).toMatch(/^messages\.0\.role: .*"system"/);
    expect(problem({ ...hi, messages: [{ role: 'user' }] })).toMatch(/^messages\.0\.content: /);
    const turns = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hm', signature: 's' },
          { type: 'tool_use', id: 't', name: 'Bash' },
        ],
      },
    ];
    expect(problem({ ...hi, messages: turns })).toMatch(/^messages\.1\.content\.1\.input: /);
    expect(problem({ ...hi, messages: [{ role: 'user', content: [{ type: 'text', text: 7 }] }] })).toMatch(
      /^messages\.0\.content\.0\.text: /,
    );
    expect(problem({ ...hi, system: [{ type: 'text' }] })).toMatch(/^system\.0\.text: /);
  });

  test('what other channels never receive, by path', () => {
    const request = {
      ...claudeCodeFirstRequest,
      messages: [
        ...claudeCodeFirstRequest.messages,
        // A block type the wire types do not list: the front takes it as the client sent it.
        {
          role: 'assistant' as const,
          content: [
            { type: 'server_tool_use', id: 's', name: 'web_search', input: {} } as unknown as ClaudeContentBlock,
          ],
        },
      ],
      tools: [...claudeCodeFirstRequest.tools!, { type: 'web_search_20250305', name: 'web_search' }],
    };
    expect(droppedForOtherChannels(request)).toEqual([
      'context_management',
      'output_config',
      'thinking',
      'messages.1.output_config',
      'messages.2.content.0(server_tool_use)',
      'tools.1.defer_loading',
      'tools.2(web_search_20250305)',
    ]);
    expect(droppedForOtherChannels({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] })).toEqual(
      [],
    );
  });
});

describe('anthropic front: client headers and documents', () => {
  test('only anthropic-beta flags and an anthropic-version date are kept, as plain tokens', () => {
    expect(
      anthropicClientHeaders({
        'anthropic-beta': ' interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14 ,',
        'anthropic-version': '2023-06-01',
        authorization: 'Bearer sk-client',
        'x-api-key': 'sk-client',
      }),
    ).toEqual({
      betas: ['interleaved-thinking-2025-05-14', 'fine-grained-tool-streaming-2025-05-14'],
      version: '2023-06-01',
    });
    // Repeated headers, duplicates, and flags carrying anything else than letters, digits, dots, dashes.
    expect(
      anthropicClientHeaders({
        'anthropic-beta': [
          'a-1,a-1',
          'b-2\r\nx-api-key: stolen',
          'c 3',
          'd;e=4',
          'f:5',
          'g\u00e9',
          'x'.repeat(101),
          'ok_6.1',
        ],
        'anthropic-version': '2023-06-01\r\nx-api-key: stolen',
      }),
    ).toEqual({ betas: ['a-1', 'ok_6.1'] });
    expect(anthropicClientHeaders({ 'anthropic-version': 'latest' })).toEqual({});
    expect(anthropicClientHeaders({})).toEqual({});
  });

  test('the headers ride on the request as its Claude original, never in its JSON', () => {
    const chat = anthropicToChatRequest(
      { model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] },
      { betas: ['interleaved-thinking-2025-05-14'], version: '2023-06-01' },
    );
    expect(JSON.stringify(chat)).not.toMatch(/interleaved|2023-06-01/);
  });

  test("the searches reserved up front: the web search tools' max_uses, none without one", () => {
    const ask = (tools: Parameters<typeof maxWebSearches>[0]['tools']) =>
      maxWebSearches({ model: 'm', max_tokens: 8, messages: [], tools });
    const weather = { name: 'get_weather', input_schema: { type: 'object' as const, properties: {} } };
    expect(ask(undefined)).toBe(0);
    expect(ask([weather])).toBe(0);
    expect(ask([{ type: 'web_search_20250305', name: 'web_search' }])).toBe(0);
    expect(ask([{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }, weather])).toBe(3);
    expect(ask([{ type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 5 }])).toBe(0);
    expect(ask([{ type: 'web_search_20250305', name: 'web_search', max_uses: 'many' }])).toBe(0);
  });

  test('server tools (web search) stay out of the OpenAI request; a Claude upstream gets the tools as sent', () => {
    const weather = { name: 'get_weather', input_schema: { type: 'object', properties: {} } };
    const webSearch = {
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 3,
      allowed_domains: ['example.com'],
    };
    const request = {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user' as const, content: 'Search the weather, then call get_weather.' }],
      tools: [webSearch, weather],
      tool_choice: { type: 'any' as const, disable_parallel_tool_use: true },
    };
    const chat = anthropicToChatRequest(request);
    expect(chat.tools).toMatchObject([
      { type: 'function', function: { name: 'get_weather', parameters: weather.input_schema } },
    ]);
    expect(JSON.stringify(chat)).not.toContain('web_search');
    expect(toClaudeRequest(chat)).toMatchObject({ tools: [webSearch, weather], tool_choice: request.tool_choice });

    // Server tools alone: no OpenAI tools at all, and still the tools and choice as sent for Claude.
    const searchOnly = anthropicToChatRequest({ ...request, tools: [webSearch], tool_choice: { type: 'auto' } });
    expect(searchOnly.tools).toBeUndefined();
    expect(searchOnly.tool_choice).toBeUndefined();
    expect(toClaudeRequest(searchOnly)).toMatchObject({ tools: [webSearch], tool_choice: { type: 'auto' } });
  });

  test('a text document becomes text for OpenAI, an inline PDF a file part; a URL or file document needs Claude', () => {
    const text = {
      type: 'document' as const,
      title: 'Notes',
      source: { type: 'text' as const, media_type: 'text/plain', data: 'The tests use vitest.' },
    };
    const pdf = {
      type: 'document' as const,
      title: 'Q3 report: final/v2.pdf',
      source: { type: 'base64' as const, media_type: 'application/pdf', data: 'JVBERi0xLjQ=' },
    };
    const url = { type: 'document' as const, source: { type: 'url' as const, url: 'https://example.com/a.pdf' } };
    const chat = anthropicToChatRequest({
      model: 'm',
      max_tokens: 8,
      messages: [
        { role: 'user', content: [text] },
        { role: 'assistant', content: 'Read.' },
        { role: 'user', content: [pdf, { type: 'text', text: 'Summarise.' }] },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: [url] },
      ],
    });
    expect(JSON.parse(JSON.stringify(chat.messages))).toEqual([
      { role: 'user', content: 'Notes\n\nThe tests use vitest.' },
      { role: 'assistant', content: 'Read.' },
      {
        role: 'user',
        content: [
          {
            type: 'file',
            file: { filename: 'Q3 report final v2.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=' },
          },
          { type: 'text', text: 'Summarise.' },
        ],
      },
      { role: 'assistant', content: 'Done.' },
      // Only its Claude original carries a PDF by URL.
      { role: 'user', content: '' },
    ]);
    expect(documentReaders([{ role: 'user', content: [text] }])).toBe('any');
    expect(
      documentReaders([
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'a' }] } },
            { type: 'text', text: 'hi' },
          ],
        },
      ]),
    ).toBe('any');
    expect(documentReaders([{ role: 'user', content: [text, pdf] }])).toBe('pdf');
    expect(documentReaders([{ role: 'user', content: [pdf, url] }])).toBe('claude');
    expect(documentReaders([{ role: 'user', content: [url] }])).toBe('claude');
    expect(
      documentReaders([
        { role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'file_011' } }] },
      ]),
    ).toBe('claude');
    // OpenAI's tool messages carry text only.
    expect(
      documentReaders([
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't', content: [pdf as never] }],
        },
      ]),
    ).toBe('claude');
  });
});

describe('anthropic front: answers', () => {
  test('a chat completion becomes a message', () => {
    const message = chatCompletionToAnthropic(
      {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Checking.',
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      },
      'gpt-4o',
    );
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    expect(message.id).toMatch(/^msg_/);
  });

  test("an OpenAI upstream's cached prompt tokens are cache reads, outside input_tokens", () => {
    const completion = (usage: ChatCompletion['usage'] & object): ChatCompletion => ({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
      usage,
    });
    const cachedUsage = {
      prompt_tokens: 1200,
      completion_tokens: 20,
      total_tokens: 1220,
      prompt_tokens_details: { cached_tokens: 1024 },
    };
    expect(chatCompletionToAnthropic(completion(cachedUsage), 'gpt-4o').usage).toEqual({
      input_tokens: 176,
      cache_read_input_tokens: 1024,
      output_tokens: 20,
    });
    const uncached = { ...cachedUsage, prompt_tokens_details: { cached_tokens: 0 } };
    expect(chatCompletionToAnthropic(completion(uncached), 'gpt-4o').usage).toEqual({
      input_tokens: 1200,
      cache_read_input_tokens: 0,
      output_tokens: 20,
    });
    const plain = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
    expect(chatCompletionToAnthropic(completion(plain), 'gpt-4o').usage).toEqual({
      input_tokens: 12,
      output_tokens: 3,
    });
  });

  test('errors in Anthropic shape', () => {
    expect(anthropicError(429, 'slow down')).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
    expect(anthropicError(401, 'no key').error.type).toBe('authentication_error');
    expect(anthropicError(503, 'busy').error.type).toBe('overloaded_error');
  });
});

describe('anthropic front: stream', () => {
  test('OpenAI chunks (here converted from a Claude stream) round-trip into the Anthropic event sequence', async () => {
    const call = relayCall({
      body: { model: 'claude-3-5-sonnet-20241022', stream: true, stream_options: { include_usage: true } },
    });
    const { chunks } = await collect(readAnthropicStream(pieces(fixture('anthropic', 'tool-stream.sse')), call));
    const writer = new AnthropicEventWriter('claude-3-5-sonnet-20241022');
    let text = '';
    for (const chunk of chunks) for (const event of writer.accept(chunk)) text += event;
    for (const event of writer.end()) text += event;
    const events = parseAnthropicEvents(text);
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[1]?.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    expect(events[4]?.data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: {} },
    });
    const json = events
      .filter((event) => event.data.delta?.type === 'input_json_delta')
      .map((event) => event.data.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ city: 'Paris' });
    expect(events[8]?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 412, output_tokens: 58 },
    });
    for (const event of events) expect(event.data.type).toBe(event.event);
  });

  test("a streamed OpenAI answer's cached prompt tokens are cache reads in message_delta", () => {
    const writer = new AnthropicEventWriter('gpt-4o', 1100);
    const usage = {
      prompt_tokens: 1200,
      completion_tokens: 20,
      total_tokens: 1220,
      prompt_tokens_details: { cached_tokens: 1024 },
    };
    const chunks: ChatChunk[] = [
      {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-4o',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
      },
      {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-4o',
        choices: [],
        usage,
      },
    ];
    let text = '';
    for (const chunk of chunks) for (const event of writer.accept(chunk)) text += event;
    for (const event of writer.end()) text += event;
    const events = parseAnthropicEvents(text);
    expect(events[0]?.data.message.usage).toEqual({ input_tokens: 1100, output_tokens: 0 });
    expect(events.find((event) => event.event === 'message_delta')?.data.usage).toEqual({
      input_tokens: 176,
      cache_read_input_tokens: 1024,
      output_tokens: 20,
    });
  });

  test('an error chunk becomes an error event and ends the stream', () => {
    const writer = new AnthropicEventWriter('m');
    const text = [...writer.accept({ error: { message: 'boom', type: 'x' } }), ...writer.end()].join('');
    expect(parseAnthropicEvents(text)).toEqual([
      { event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'boom' } } },
    ]);
  });
});
