import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import {
  collect,
  pieces,
  sendStreaming,
  sendWhole,
  wholeResponse,
} from '../../../../test/mock-upstreams/relay-call-kit.js';
import { startBaiduMock } from '../../../../test/mock-upstreams/baidu.js';
import { describedWeatherTool } from '../../../../test/chat-fixtures.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { isUpstreamError } from '../../upstream-error.js';
import { baiduAccessToken } from './access-token.js';
import { buildBaiduRequest, parseBaiduKey } from './request.js';
import { readBaiduError, readBaiduResponse } from './response.js';
import { readBaiduStream } from './stream.js';

const key = 'ak-test|sk-test';
const tools = [describedWeatherTool];
const chatBody = {
  model: 'ERNIE-3.5-8K',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: [{ type: 'text', text: '你好' }] },
  ],
  temperature: 1.6,
  frequency_penalty: 1,
  max_tokens: 100,
  user: 'u1',
};

describe('baidu request', () => {
  it('parses APIKey|SecretKey and rejects other shapes clearly', () => {
    expect(parseBaiduKey(' a | b ')).toEqual({ apiKey: 'a', secretKey: 'b' });
    for (const bad of ['only-one', 'a|b|c', 'a|']) {
      try {
        parseBaiduKey(bad);
        expect.unreachable();
      } catch (error) {
        expect(isUpstreamError(error) && error.body.message).toContain('APIKey|SecretKey');
        expect(String((error as Error).message)).not.toContain(bad);
      }
    }
  });

  it('builds the chat URL by endpoint and moves system to the top level', () => {
    const request = buildBaiduRequest(relayCall({ body: chatBody, baseUrl: 'https://aip.example' }), 'tok');
    expect(request.url).toBe(
      'https://aip.example/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions?access_token=tok',
    );
    expect(JSON.parse(String(request.body))).toEqual({
      messages: [{ role: 'user', content: '你好' }],
      system: 'You are terse.',
      stream: false,
      temperature: 1,
      penalty_score: 1.5,
      max_output_tokens: 100,
      user_id: 'u1',
    });
  });

  it('sends tools as functions and tool results as function turns', () => {
    const body = {
      model: 'ERNIE-4.0-8K',
      tools,
      messages: [
        { role: 'user', content: '北京天气' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"北京"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      ],
    };
    const request = buildBaiduRequest(relayCall({ body }), 'tok');
    expect(request.url).toContain('/chat/completions_pro?');
    const sent = JSON.parse(String(request.body));
    expect(sent.functions[0].name).toBe('get_weather');
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: '',
      function_call: { name: 'get_weather', arguments: '{"city":"北京"}' },
    });
    expect(sent.messages[2]).toEqual({ role: 'function', name: 'get_weather', content: '{"temp":21}' });
  });

  it('routes embedding models to the embeddings family', () => {
    const call = relayCall({ mode: 'embeddings', body: { model: 'Embedding-V1', input: 'hello' } });
    const request = buildBaiduRequest(call, 'tok');
    expect(request.url).toContain('/wenxinworkshop/embeddings/embedding-v1?access_token=tok');
    expect(JSON.parse(String(request.body))).toEqual({ input: ['hello'] });
  });
});

describe('baidu response', () => {
  const call = relayCall({ body: chatBody });

  it('converts a whole answer with usage', () => {
    const result = readBaiduResponse(wholeResponse(fixture('baidu', 'chat.json')), call);
    const body = JSON.parse(result.body.toString());
    expect(body.choices[0]).toMatchObject({
      message: { role: 'assistant', content: '你好！我是文心一言。' },
      finish_reason: 'stop',
    });
    expect(body.object).toBe('chat.completion');
    expect(result.usage).toEqual({ prompt_tokens: 2, completion_tokens: 16, total_tokens: 18 });
  });

  it('converts a function call into tool_calls', () => {
    const result = readBaiduResponse(wholeResponse(fixture('baidu', 'chat-function-call.json')), call);
    const choice = JSON.parse(result.body.toString()).choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"北京"}' },
    });
    expect(choice.message.tool_calls[0].id).toMatch(/^call_/);
  });

  it('throws the upstream error of a 200 error body with a fitting status', () => {
    try {
      readBaiduResponse(wholeResponse(fixture('baidu', 'error.json')), call);
      expect.unreachable();
    } catch (error) {
      expect(isUpstreamError(error) && error.body).toMatchObject({
        status: 401,
        code: '110',
        type: 'baidu_error',
        message: 'Access token invalid or no longer valid',
      });
    }
    expect(
      readBaiduError(wholeResponse('{"error_code":18,"error_msg":"Open api qps request limit reached"}')),
    ).toMatchObject({ status: 429, code: '18' });
    expect(readBaiduError(wholeResponse('<html>bad gateway</html>', 502))).toMatchObject({
      status: 502,
      message: '<html>bad gateway</html>',
    });
  });

  it('converts embeddings', () => {
    const embeddingsCall = relayCall({ mode: 'embeddings', body: { model: 'Embedding-V1', input: ['a', 'b'] } });
    const body = JSON.parse(
      readBaiduResponse(wholeResponse(fixture('baidu', 'embeddings.json')), embeddingsCall).body.toString(),
    );
    expect(body).toMatchObject({ object: 'list', model: 'Embedding-V1', usage: { prompt_tokens: 4, total_tokens: 4 } });
    expect(body.data[1]).toEqual({ object: 'embedding', index: 1, embedding: [0.0321, 0.0654, -0.0987] });
  });

  it('converts the stream: role first, text deltas, stop and the whole usage at the end', async () => {
    const { chunks, content, usage, last } = await collect(
      readBaiduStream(pieces(fixture('baidu', 'stream.sse')), call),
    );
    expect(chunks).toHaveLength(3);
    expect(chunks[0]!.choices[0].delta).toEqual({ role: 'assistant', content: '你好' });
    expect(content).toBe('你好！我是文心一言。');
    expect(last!.choices[0].finish_reason).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 2, completion_tokens: 16, total_tokens: 18 });
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
  });

  it('reports a stream cut before is_end', async () => {
    const cut = fixture('baidu', 'stream.sse').split('\n\n').slice(0, 2).join('\n\n');
    await expect(collect(readBaiduStream(pieces(cut), call))).rejects.toMatchObject({ status: 502 });
  });

  it('throws on an error line inside the stream', async () => {
    await expect(collect(readBaiduStream(pieces(fixture('baidu', 'error.json')), call))).rejects.toMatchObject({
      status: 401,
    });
  });
});

describe('baidu mock upstream', () => {
  const mock = startedForSuite(() => startBaiduMock({ apiKey: 'ak-test', secretKey: 'sk-test' }));

  it('exchanges the key for a token once and answers chat, stream and embeddings', async () => {
    const token = await baiduAccessToken(mock.url, key, sendWhole);
    expect(await baiduAccessToken(mock.url, key, sendWhole)).toBe(token);
    expect(mock.requests.filter((request) => request.path === '/oauth/2.0/token')).toHaveLength(1);

    const call = relayCall({ body: chatBody, baseUrl: mock.url });
    const whole = readBaiduResponse(await sendWhole(buildBaiduRequest(call, token)), call);
    expect(whole.usage?.total_tokens).toBe(18);

    const streamCall = relayCall({ body: { ...chatBody, stream: true }, baseUrl: mock.url });
    const streamed = await collect(readBaiduStream(sendStreaming(buildBaiduRequest(streamCall, token)), streamCall));
    expect(streamed.content).toBe('你好！我是文心一言。');

    const embeddingsCall = relayCall({
      mode: 'embeddings',
      body: { model: 'bge-large-zh', input: ['x'] },
      baseUrl: mock.url,
    });
    const embeddings = JSON.parse(
      readBaiduResponse(await sendWhole(buildBaiduRequest(embeddingsCall, token)), embeddingsCall).body.toString(),
    );
    expect(embeddings.data).toHaveLength(1);
  });

  it('refuses a wrong key pair and a wrong token', async () => {
    await expect(baiduAccessToken(mock.url, 'ak-test|wrong', sendWhole)).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('unknown client id'),
    });
    const call = relayCall({ body: chatBody, baseUrl: mock.url });
    expect(() => readBaiduResponse(wholeResponse(''), call)).toThrow();
    const answer = await sendWhole(buildBaiduRequest(call, 'wrong-token'));
    expect(() => readBaiduResponse(answer, call)).toThrow('Access token invalid');
  });
});
