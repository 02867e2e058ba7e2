import { describe, expect, it } from 'vitest';
import { startAliMock, aliMockPicture } from '../../../../test/mock-upstreams/ali.js';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import {
  collect,
  pieces,
  sendStreaming,
  sendWhole,
  wholeResponse,
} from '../../../../test/mock-upstreams/relay-call-kit.js';
import { weatherTool, weatherToolTurn } from '../../../../test/chat-fixtures.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { finishAliImageTask } from './images.js';
import { buildAliRequest } from './request.js';
import { readAliError, readAliResponse } from './response.js';
import { readAliStream } from './stream.js';

const tools = [weatherTool];
const chatBody = {
  model: 'qwen-plus',
  messages: [
    { role: 'system', content: 'terse' },
    { role: 'user', content: [{ type: 'text', text: '你好' }] },
  ],
  top_p: 1,
  max_tokens: 50,
};

describe('ali request', () => {
  it('builds the native text-generation request', () => {
    const call = relayCall({
      body: { ...chatBody, model: 'qwen-max-internet', stream: true },
      key: 'sk-ali',
      config: { plugin: '{"pdf_extracter":{}}' },
    });
    const request = buildAliRequest(call);
    expect(request.url).toBe('http://127.0.0.1:9/api/v1/services/aigc/text-generation/generation');
    expect(request.headers).toMatchObject({
      authorization: 'Bearer sk-ali',
      'x-dashscope-sse': 'enable',
      accept: 'text/event-stream',
      'x-dashscope-plugin': '{"pdf_extracter":{}}',
    });
    expect(JSON.parse(String(request.body))).toEqual({
      model: 'qwen-max',
      input: {
        messages: [
          { role: 'system', content: 'terse' },
          { role: 'user', content: '你好' },
        ],
      },
      parameters: {
        result_format: 'message',
        incremental_output: true,
        max_tokens: 50,
        top_p: 0.9999,
        enable_search: true,
      },
    });
  });

  it('passes tools and tool turns; embeddings and images have their own bodies', () => {
    const messages = weatherToolTurn('杭州天气');
    const sent = JSON.parse(String(buildAliRequest(relayCall({ body: { model: 'qwen-plus', messages, tools } })).body));
    expect(sent.parameters.tools).toEqual(tools);
    expect(sent.input.messages[1].tool_calls[0].id).toBe('c1');
    expect(sent.input.messages[2]).toEqual({ role: 'tool', content: '晴', tool_call_id: 'c1' });

    const embeddings = buildAliRequest(
      relayCall({ mode: 'embeddings', body: { model: 'text-embedding-v1', input: 'a' } }),
    );
    expect(embeddings.url).toContain('/api/v1/services/embeddings/text-embedding/text-embedding');
    expect(JSON.parse(String(embeddings.body))).toEqual({
      model: 'text-embedding-v1',
      input: { texts: ['a'] },
      parameters: { text_type: 'query' },
    });

    const image = buildAliRequest(
      relayCall({ mode: 'images', body: { model: 'wanx-v1', prompt: 'a cat', size: '1024x1024', n: 1 } }),
    );
    expect(image.headers['x-dashscope-async']).toBe('enable');
    expect(JSON.parse(String(image.body))).toEqual({
      model: 'wanx-v1',
      input: { prompt: 'a cat' },
      parameters: { size: '1024*1024', n: 1 },
    });
  });

  it('sends pictures to the multimodal service as {text}/{image} parts, and reads the plugin from the legacy column', () => {
    const messages = [
      { role: 'system', content: 'terse' },
      {
        role: 'user',
        content: [
          { type: 'text', text: '这是什么' },
          { type: 'image_url', image_url: { url: 'https://pics.example/cat.png' } },
        ],
      },
    ];
    const request = buildAliRequest(
      relayCall({ body: { model: 'qwen-vl-plus', messages }, config: { api_version: '{"ocr":{}}' } }),
    );
    expect(request.url).toContain('/api/v1/services/aigc/multimodal-generation/generation');
    expect(request.headers['x-dashscope-plugin']).toBe('{"ocr":{}}');
    expect(JSON.parse(String(request.body)).input.messages).toEqual([
      { role: 'system', content: [{ text: 'terse' }] },
      { role: 'user', content: [{ text: '这是什么' }, { image: 'https://pics.example/cat.png' }] },
    ]);
    const answer = readAliResponse(
      wholeResponse(fixture('ali', 'vision.json')),
      relayCall({ body: { model: 'qwen-vl-plus', messages } }),
    );
    expect(JSON.parse(answer.body.toString()).choices[0].message.content).toBe('图中是一只橘猫，趴在窗台上。');
    expect(answer.usage).toEqual({ prompt_tokens: 1262, completion_tokens: 12, total_tokens: 1274 });
  });

  it('refuses an empty key', () => {
    expect(() => buildAliRequest(relayCall({ body: chatBody, key: ' ' }))).toThrow('expected one DashScope API key');
  });
});

describe('ali response', () => {
  const call = relayCall({ body: chatBody });

  it('converts whole answers, tool calls and usage', () => {
    const plain = readAliResponse(wholeResponse(fixture('ali', 'chat.json')), call);
    expect(JSON.parse(plain.body.toString()).choices[0]).toMatchObject({
      message: { content: '你好！有什么可以帮你的吗？' },
      finish_reason: 'stop',
    });
    expect(plain.usage).toEqual({ prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 });
    const tool = JSON.parse(readAliResponse(wholeResponse(fixture('ali', 'chat-tool-call.json')), call).body.toString())
      .choices[0];
    expect(tool.finish_reason).toBe('tool_calls');
    expect(tool.message.tool_calls[0]).toEqual({
      id: 'call_3f2a1c8e9b7d4e6f',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city": "杭州"}' },
    });
  });

  it('converts embeddings and errors', () => {
    const embeddingsCall = relayCall({ mode: 'embeddings', body: { model: 'text-embedding-v1', input: ['a', 'b'] } });
    const embeddings = readAliResponse(wholeResponse(fixture('ali', 'embeddings.json')), embeddingsCall);
    expect(JSON.parse(embeddings.body.toString()).data[1].index).toBe(1);
    expect(embeddings.usage).toEqual({ prompt_tokens: 4, completion_tokens: 0, total_tokens: 4 });
    expect(readAliError(wholeResponse(fixture('ali', 'error.json'), 401))).toMatchObject({
      status: 401,
      code: 'InvalidApiKey',
      message: 'Invalid API-key provided.',
    });
    expect(
      readAliError(
        wholeResponse(
          '{"code":"Arrearage","message":"Access denied, please make sure your account is in good standing."}',
          400,
        ),
      ),
    ).toMatchObject({ type: 'insufficient_quota' });
  });

  it('converts the stream with one usage on the finishing chunk', async () => {
    const { chunks, content, usage, last } = await collect(readAliStream(pieces(fixture('ali', 'stream.sse')), call));
    expect(content).toBe('你好！有什么可以帮你的吗？');
    expect(chunks[0]!.choices[0].delta.role).toBe('assistant');
    expect(chunks.slice(0, -1).every((chunk) => chunk.choices[0].finish_reason === null && !chunk.usage)).toBe(true);
    expect(last!.choices[0].finish_reason).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 });
  });

  it('streams tool-call fragments by index', async () => {
    const { chunks, last } = await collect(readAliStream(pieces(fixture('ali', 'stream-tool-call.sse')), call));
    expect(chunks[0]!.choices[0].delta.tool_calls[0]).toEqual({
      index: 0,
      id: 'call_8d1e2f3a4b5c6d7e',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":' },
    });
    expect(chunks[1]!.choices[0].delta.tool_calls[0]).toEqual({ index: 0, function: { arguments: ' "杭州"}' } });
    expect(last!.choices[0].finish_reason).toBe('tool_calls');
  });

  it('turns an error event into an UpstreamError', async () => {
    await expect(collect(readAliStream(pieces(fixture('ali', 'stream-error.sse')), call))).rejects.toMatchObject({
      status: 400,
      body: { code: 'DataInspectionFailed' },
    });
  });
});

describe('ali mock upstream', () => {
  const mock = startedForSuite(() => startAliMock({ apiKey: 'sk-ali' }));

  it('answers chat, stream, tools and embeddings', async () => {
    const call = relayCall({ body: chatBody, key: 'sk-ali', baseUrl: mock.url });
    expect(readAliResponse(await sendWhole(buildAliRequest(call)), call).usage?.total_tokens).toBe(20);
    const streamCall = relayCall({ body: { ...chatBody, stream: true }, key: 'sk-ali', baseUrl: mock.url });
    expect((await collect(readAliStream(sendStreaming(buildAliRequest(streamCall)), streamCall))).content).toBe(
      '你好！有什么可以帮你的吗？',
    );
    const toolCall = relayCall({ body: { ...chatBody, tools }, key: 'sk-ali', baseUrl: mock.url });
    expect(
      JSON.parse(readAliResponse(await sendWhole(buildAliRequest(toolCall)), toolCall).body.toString()).choices[0]
        .finish_reason,
    ).toBe('tool_calls');
    const wrongKey = await sendWhole(
      buildAliRequest(relayCall({ body: chatBody, key: 'sk-wrong', baseUrl: mock.url })),
    );
    expect(readAliError(wrongKey)).toMatchObject({ status: 401, code: 'InvalidApiKey' });
  });

  it('runs an image task to the end, as URL and as base64', async () => {
    const call = relayCall({
      mode: 'images',
      body: { model: 'wanx-v1', prompt: 'a cat' },
      key: 'sk-ali',
      baseUrl: mock.url,
    });
    const fast = { intervalMs: 5, maxPolls: 5 };
    const byUrl = await finishAliImageTask(await sendWhole(buildAliRequest(call)), call, sendWhole, fast);
    expect(JSON.parse(byUrl.body.toString()).data[0].url).toBe(`${mock.url}/pictures/cat.png`);
    const base64Call = relayCall({
      mode: 'images',
      body: { model: 'wanx-v1', prompt: 'a dog', response_format: 'b64_json' },
      key: 'sk-ali',
      baseUrl: mock.url,
    });
    mock.requests.length = 0;
    const submitted = await sendWhole(buildAliRequest(base64Call));
    const byBase64 = await finishAliImageTask(submitted, base64Call, sendWhole, fast);
    expect(JSON.parse(byBase64.body.toString()).data[0].b64_json).toBe(aliMockPicture.toString('base64'));
  });
});
