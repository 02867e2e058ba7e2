import { describe, expect, test } from 'vitest';
import { geminiMockKey, startGeminiMock } from '../../../../test/mock-upstreams/gemini.js';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { UpstreamError } from '../../upstream-error.js';
import { buildGeminiRequest, toGeminiRequest } from './request.js';
import { readGeminiError, readGeminiResponse } from './response.js';
import { readGeminiStream } from './stream.js';

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather',
    parameters: {
      type: 'object',
      additionalProperties: false,
      $schema: 'x',
      properties: { city: { type: 'string', default: 'Paris' } },
      required: ['city'],
    },
  },
};

const chat = (body: Record<string, unknown>, baseUrl = 'http://127.0.0.1:9') =>
  relayCall({ body: { model: 'gemini-1.5-flash', ...body }, type: 24, key: geminiMockKey, baseUrl });

describe('gemini request conversion', () => {
  test('messages, images, tool calls and tool answers become contents', () => {
    const body = toGeminiRequest({
      model: 'gemini-1.5-flash',
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c":21}' },
        { role: 'tool', tool_call_id: 'call_unknown', name: 'other', content: 'plain text' },
      ],
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.5,
      max_tokens: 100,
      stop: ['END'],
      n: 2,
      response_format: { type: 'json_object' },
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are terse.' }] });
    expect(body.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'Weather?' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0' } },
          { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a.png' } },
        ],
      },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp_c: 21 } } },
          { functionResponse: { name: 'other', response: { content: 'plain text' } } },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
    expect(body.generationConfig).toEqual({
      temperature: 0.5,
      maxOutputTokens: 100,
      stopSequences: ['END'],
      candidateCount: 2,
      responseMimeType: 'application/json',
    });
    expect(body.safetySettings).toHaveLength(5);
  });

  test("an output cap above the model's limit is lowered to it (Claude Code's 128000 on gemini-2.5-pro)", () => {
    const capOf = (model: string, max_tokens: number) =>
      toGeminiRequest({ model, max_tokens, messages: [{ role: 'user', content: 'hi' }] }).generationConfig
        ?.maxOutputTokens;
    expect(capOf('gemini-2.5-pro', 128_000)).toBe(65_536);
    expect(capOf('gemini-2.0-flash', 128_000)).toBe(8192);
    expect(capOf('gemini-2.5-pro', 1000)).toBe(1000);
    // A model the table does not know keeps the client's cap.
    expect(capOf('learnlm-9', 128_000)).toBe(128_000);
  });

  test('URLs: generateContent, SSE stream, embeddings, api_version override', () => {
    expect(buildGeminiRequest(chat({ messages: [{ role: 'user', content: 'hi' }] }, 'https://g.example')).url).toBe(
      'https://g.example/v1beta/models/gemini-1.5-flash:generateContent',
    );
    const stream = buildGeminiRequest(chat({ messages: [{ role: 'user', content: 'hi' }], stream: true }));
    expect(stream.url).toMatch(/:streamGenerateContent\?alt=sse$/);
    expect(stream.headers['x-goog-api-key']).toBe(geminiMockKey);
    const embed = buildGeminiRequest(
      relayCall({
        mode: 'embeddings',
        body: { model: 'text-embedding-004', input: ['a', 'b'], dimensions: 8 },
        key: 'k',
        config: { api_version: 'v1' },
      }),
    );
    expect(embed.url).toBe('http://127.0.0.1:9/v1/models/text-embedding-004:batchEmbedContents');
    expect(JSON.parse(String(embed.body))).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] }, outputDimensionality: 8 },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] }, outputDimensionality: 8 },
      ],
    });
  });
});

describe('gemini answers', () => {
  const response = (name: string, status = 200) => ({ status, headers: {}, body: fixtureBytes('gemini', name) });

  test('text answer with usage', () => {
    const result = readGeminiResponse(response('generate-content.json'), chat({ messages: [] }));
    expect(JSON.parse(result.body.toString())).toMatchObject({
      object: 'chat.completion',
      model: 'gemini-1.5-flash',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello! How can I help you today?' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 10, total_tokens: 19 },
    });
  });

  test('function call answer becomes tool_calls with generated ids', () => {
    const body = JSON.parse(readGeminiResponse(response('function-call.json'), chat({ messages: [] })).body.toString());
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.content).toBeNull();
    expect(body.choices[0].message.tool_calls[0]).toMatchObject({
      id: expect.stringMatching(/^call_/),
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
    });
  });

  test("a function call's thought signature goes out in its tool call id and comes back on the call (Gemini 3)", () => {
    const signature = 'CiQBjz1rX+/sig==';
    const answer = {
      status: 200,
      headers: {},
      body: Buffer.from(
        JSON.stringify({
          candidates: [
            {
              content: {
                role: 'model',
                parts: [
                  { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: signature },
                ],
              },
              finishReason: 'STOP',
            },
          ],
        }),
      ),
    };
    const body = JSON.parse(readGeminiResponse(answer, chat({ messages: [] })).body.toString());
    const call = body.choices[0].message.tool_calls[0];
    // Only what Anthropic allows in a tool_use id, so Claude clients can carry it too.
    expect(call.id).toMatch(/^call_[A-Za-z0-9_-]+__thought__[A-Za-z0-9_-]+$/);
    const request = toGeminiRequest({
      model: 'gemini-3-pro-preview',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"temp_c":21}' },
      ],
    });
    expect(request.contents[1]!.parts[0]).toEqual({
      functionCall: { name: 'get_weather', args: { city: 'Paris' } },
      thoughtSignature: signature,
    });
    expect(request.contents[2]!.parts[0]!.functionResponse!.name).toBe('get_weather');
  });

  test('a blocked prompt is an empty content_filter answer', () => {
    const body = JSON.parse(readGeminiResponse(response('blocked.json'), chat({ messages: [] })).body.toString());
    expect(body.choices[0]).toMatchObject({ finish_reason: 'content_filter', message: { content: '' } });
  });

  test('embeddings', () => {
    const result = readGeminiResponse(
      response('embeddings.json'),
      relayCall({ mode: 'embeddings', body: { model: 'text-embedding-004', input: ['a', 'b'] } }),
    );
    const body = JSON.parse(result.body.toString());
    expect(body.data).toEqual([
      { object: 'embedding', index: 0, embedding: [0.013, -0.008, 0.021] },
      { object: 'embedding', index: 1, embedding: [0.002, 0.017, -0.011] },
    ]);
  });

  test('errors keep Google status and message', () => {
    expect(readGeminiError(response('error-invalid-key.json', 400))).toEqual({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
      type: 'INVALID_ARGUMENT',
      param: null,
      code: 'INVALID_ARGUMENT',
    });
    expect(() => readGeminiResponse(response('error-invalid-key.json'), chat({ messages: [] }))).toThrow(UpstreamError);
  });
});

describe('gemini streams', () => {
  test('text chunks (CRLF framing) with finish and usage', async () => {
    const result = await collect(
      readGeminiStream(
        pieces(fixture('gemini', 'stream.sse'), 9),
        chat({ messages: [], stream: true, stream_options: { include_usage: true } }),
      ),
    );
    expect(result.content).toBe('Hello! How can I help?');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 });
    expect(result.chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: 16 } });
    expect(result.chunks[0].choices[0].delta.role).toBe('assistant');
  });

  test('function calls stream as indexed tool calls', async () => {
    const result = await collect(
      readGeminiStream(pieces(fixture('gemini', 'function-call-stream.sse')), chat({ messages: [], stream: true })),
    );
    expect(result.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
    expect(result.finishReason).toBe('tool_calls');
  });
});

describe('gemini mock upstream', () => {
  const mock = startedForSuite(() => startGeminiMock());

  test('accepts our request and rejects a bad key', async () => {
    const call = chat({ messages: [{ role: 'user', content: 'hi' }] }, mock.url);
    const answer = await sendWhole(buildGeminiRequest(call));
    expect(answer.status).toBe(200);
    expect(JSON.parse(readGeminiResponse(answer, call).body.toString()).choices[0].message.content).toContain('Hello');
    const denied = await sendWhole(
      buildGeminiRequest(
        relayCall({
          body: { model: 'gemini-pro', messages: [{ role: 'user', content: 'hi' }] },
          key: 'bad',
          baseUrl: mock.url,
        }),
      ),
    );
    expect(readGeminiError(denied)).toMatchObject({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
    });
  });
});
