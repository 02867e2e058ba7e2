import { describe, expect, test } from 'vitest';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { startOllamaMock } from '../../../../test/mock-upstreams/ollama.js';
import { weatherTool } from '../../../../test/chat-fixtures.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { buildOllamaRequest, toOllamaChatRequest } from './request.js';
import { readOllamaError, readOllamaResponse } from './response.js';
import { readOllamaStream } from './stream.js';

describe('ollama requests', () => {
  test('messages, images, options, tools and format', () => {
    const body = toOllamaChatRequest({
      model: 'llama3:latest',
      messages: [
        { role: 'developer', content: 'terse' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is ' },
            { type: 'text', text: 'this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '21C' },
      ],
      max_tokens: 50,
      temperature: 0.1,
      stop: 'END',
      num_ctx: 4096,
      tools: [weatherTool],
      response_format: { type: 'json_object' },
    });
    expect(body).toEqual({
      model: 'llama3:latest',
      stream: false,
      messages: [
        { role: 'system', content: 'terse' },
        { role: 'user', content: 'what is this?', images: ['AAAA'] },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
        },
        { role: 'tool', content: '21C' },
      ],
      options: { temperature: 0.1, num_predict: 50, num_ctx: 4096, stop: ['END'] },
      tools: [weatherTool],
      format: 'json',
    });
  });

  test('web image URLs are refused rather than fetched', () => {
    expect(() =>
      toOllamaChatRequest({
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://10.0.0.1/x.png' } }] }],
      }),
    ).toThrow(/data: URLs/);
  });

  test('URLs and the optional bearer key', () => {
    const chat = buildOllamaRequest(
      relayCall({ body: { model: 'llama3:latest', messages: [] }, key: '', baseUrl: 'http://ollama:11434' }),
    );
    expect(chat.url).toBe('http://ollama:11434/api/chat');
    expect(chat.headers.authorization).toBeUndefined();
    const embed = buildOllamaRequest(
      relayCall({ mode: 'embeddings', body: { model: 'nomic-embed-text', input: 'a' }, key: 'k' }),
    );
    expect(embed.url).toMatch(/\/api\/embed$/);
    expect(JSON.parse(String(embed.body))).toEqual({ model: 'nomic-embed-text', input: ['a'] });
    expect(embed.headers.authorization).toBe('Bearer k');
  });
});

describe('ollama answers and streams', () => {
  const whole = (name: string) => ({ status: 200, headers: {}, body: fixtureBytes('ollama', name) });
  const chat = (body: Record<string, unknown> = {}) =>
    relayCall({ body: { model: 'llama3:latest', messages: [], ...body } });

  test('chat answer with usage', () => {
    const result = readOllamaResponse(whole('chat.json'), chat());
    expect(JSON.parse(result.body.toString()).choices[0]).toMatchObject({
      message: { content: 'Hello! How can I help you today?' },
      finish_reason: 'stop',
    });
    expect(result.usage).toEqual({ prompt_tokens: 26, completion_tokens: 10, total_tokens: 36 });
  });

  test('tool call answer', () => {
    const body = JSON.parse(readOllamaResponse(whole('tool-call.json'), chat()).body.toString());
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
    });
  });

  test('embeddings', () => {
    const result = readOllamaResponse(
      whole('embed.json'),
      relayCall({ mode: 'embeddings', body: { model: 'nomic-embed-text', input: ['a', 'b'] } }),
    );
    expect(JSON.parse(result.body.toString()).data).toHaveLength(2);
    expect(result.usage?.prompt_tokens).toBe(8);
  });

  test('NDJSON stream, text and tools', async () => {
    const text = await collect(
      readOllamaStream(
        pieces(fixture('ollama', 'chat-stream.jsonl')),
        chat({ stream: true, stream_options: { include_usage: true } }),
      ),
    );
    expect(text.content).toBe('Hello! How can I help?');
    expect(text.usage).toEqual({ prompt_tokens: 26, completion_tokens: 7, total_tokens: 33 });
    expect(text.chunks.at(-1).choices).toEqual([]);
    const tools = await collect(
      readOllamaStream(pieces(fixture('ollama', 'tool-call-stream.jsonl')), chat({ stream: true })),
    );
    expect(tools.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    expect(tools.finishReason).toBe('tool_calls');
  });

  test('a mid-stream error line', async () => {
    const result = await collect(
      readOllamaStream(
        pieces(
          '{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}\n{"error":"an unknown error was encountered while running the model"}\n',
        ),
        chat({ stream: true }),
      ),
    );
    expect(result.chunks.at(-1)).toMatchObject({
      error: { message: 'an unknown error was encountered while running the model' },
    });
  });

  test('errors keep the Ollama message', () => {
    expect(
      readOllamaError({ status: 404, headers: {}, body: fixtureBytes('ollama', 'error-model-not-found.json') }),
    ).toMatchObject({ status: 404, message: 'model "llama9:latest" not found, try pulling it first' });
  });
});

describe('ollama mock upstream', () => {
  const mock = startedForSuite(() => startOllamaMock());

  test('accepts our requests', async () => {
    const call = relayCall({
      body: { model: 'llama3:latest', messages: [{ role: 'user', content: 'hi' }] },
      baseUrl: mock.url,
    });
    const answer = await sendWhole(buildOllamaRequest(call));
    expect(answer.status).toBe(200);
    expect(readOllamaResponse(answer, call).usage?.total_tokens).toBe(36);
    const missing = await sendWhole(
      buildOllamaRequest(relayCall({ body: { model: 'llama9:latest', messages: [] }, baseUrl: mock.url })),
    );
    expect(readOllamaError(missing)).toMatchObject({
      status: 404,
      message: expect.stringContaining('try pulling it first'),
    });
  });
});
