import { describe, expect, test } from 'vitest';
import { cohereMockKey, startCohereMock } from '../../../../test/mock-upstreams/cohere.js';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { UpstreamError } from '../../upstream-error.js';
import { readErrorBody } from '../openai/response.js';
import { buildCohereRequest, toCohereRequest } from './request.js';
import { readCohereResponse } from './response.js';
import { readCohereStream } from './stream.js';

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City' }, days: { type: 'integer' } },
      required: ['city'],
    },
  },
};

describe('cohere requests', () => {
  test('preamble, history, last user message, -internet connector, parameters', () => {
    const body = toCohereRequest({
      model: 'command-r-internet',
      messages: [
        { role: 'system', content: 'terse' },
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'second question' },
      ],
      stream: true,
      temperature: 0.3,
      top_p: 0.75,
      max_tokens: 100,
      stop: ['END'],
      tools: [weatherTool],
    });
    expect(body).toEqual({
      model: 'command-r',
      message: 'second question',
      preamble: 'terse',
      chat_history: [
        { role: 'USER', message: 'first question' },
        { role: 'CHATBOT', message: 'first answer' },
      ],
      stream: true,
      temperature: 0.3,
      p: 0.75,
      max_tokens: 100,
      stop_sequences: ['END'],
      connectors: [{ id: 'web-search' }],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          parameter_definitions: {
            city: { type: 'str', description: 'City', required: true },
            days: { type: 'int', required: false },
          },
        },
      ],
    });
  });

  test('trailing tool answers become tool_results with their call', () => {
    const body = toCohereRequest({
      model: 'command-r',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '{"temp_c":21}' },
      ],
    });
    expect(body.message).toBe('');
    expect(body.chat_history).toEqual([
      { role: 'USER', message: 'weather?' },
      { role: 'CHATBOT', message: '', tool_calls: [{ name: 'get_weather', parameters: { city: 'Paris' } }] },
    ]);
    expect(body.tool_results).toEqual([
      { call: { name: 'get_weather', parameters: { city: 'Paris' } }, outputs: [{ temp_c: 21 }] },
    ]);
  });

  test('URL, Bearer key, empty key refused', () => {
    const request = buildCohereRequest(
      relayCall({
        body: { model: 'command-r', messages: [{ role: 'user', content: 'hi' }] },
        key: 'k',
        baseUrl: 'https://api.cohere.ai',
      }),
    );
    expect(request.url).toBe('https://api.cohere.ai/v1/chat');
    expect(request.headers.authorization).toBe('Bearer k');
    expect(() => buildCohereRequest(relayCall({ body: { model: 'command-r', messages: [] }, key: '' }))).toThrow(
      /key is empty/,
    );
  });
});

describe('cohere answers and streams', () => {
  const chat = (body: Record<string, unknown> = {}) =>
    relayCall({ body: { model: 'command-r', messages: [], ...body } });
  const whole = (name: string) => ({ status: 200, headers: {}, body: fixtureBytes('cohere', name) });

  test('text answer, usage from meta.tokens', () => {
    const result = readCohereResponse(whole('chat.json'), chat());
    expect(JSON.parse(result.body.toString())).toMatchObject({
      id: 'chatcmpl-a29a4d0b-9b57-4a30-a1e6-2b8e6e0e2a31',
      choices: [{ message: { content: 'Hello! How can I help you today?' }, finish_reason: 'stop' }],
    });
    expect(result.usage).toEqual({ prompt_tokens: 68, completion_tokens: 9, total_tokens: 77 });
  });

  test('tool calls', () => {
    const body = JSON.parse(readCohereResponse(whole('tool-call.json'), chat()).body.toString());
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: 'I will look up the weather in Paris.',
        tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
    });
  });

  test('a 200 body without response_id is an error', () => {
    expect(() =>
      readCohereResponse({ status: 200, headers: {}, body: Buffer.from('{"message":"too many tokens"}') }, chat()),
    ).toThrow(UpstreamError);
  });

  test('NDJSON streams', async () => {
    const text = await collect(
      readCohereStream(pieces(fixture('cohere', 'chat-stream.jsonl')), chat({ stream: true })),
    );
    expect(text.content).toBe('Hello! How can I help?');
    expect(text.usage).toEqual({ prompt_tokens: 68, completion_tokens: 7, total_tokens: 75 });
    expect(text.finishReason).toBe('stop');
    const tools = await collect(
      readCohereStream(pieces(fixture('cohere', 'tool-call-stream.jsonl')), chat({ stream: true })),
    );
    expect(tools.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    expect(tools.finishReason).toBe('tool_calls');
  });

  test('errors keep the message', () => {
    expect(readErrorBody(401, fixtureBytes('cohere', 'error-unauthorized.json'))).toMatchObject({
      status: 401,
      message: 'invalid api token',
    });
  });
});

describe('cohere mock upstream', () => {
  const mock = startedForSuite(() => startCohereMock());

  test('accepts our request, rejects a bad key', async () => {
    const call = relayCall({
      body: { model: 'command-r', messages: [{ role: 'user', content: 'hi' }] },
      key: cohereMockKey,
      baseUrl: mock.url,
    });
    expect(readCohereResponse(await sendWhole(buildCohereRequest(call)), call).usage?.total_tokens).toBe(77);
    const denied = await sendWhole(buildCohereRequest({ ...call, channel: { ...call.channel, key: 'bad' } }));
    expect(denied.status).toBe(401);
  });
});
