import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, wholeResponse } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { startXunfeiMock } from '../../../../test/mock-upstreams/xunfei.js';
import { terseGreeting } from '../../../../test/chat-fixtures.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { sparkDomain, sparkPath, sparkVersion } from './models.js';
import { buildXunfeiRequest, parseXunfeiKey } from './request.js';
import { readXunfeiError, readXunfeiResponse } from './response.js';
import { readXunfeiStream } from './stream.js';
import { openSparkSocket, readSocketBody } from './transport.js';

const key = 'app1|secret1|key1';
const tools = [
  { type: 'function', function: { name: 'get_weather', description: '天气', parameters: { type: 'object' } } },
];
const body = {
  model: 'Spark-Max',
  messages: terseGreeting,
  temperature: 0.5,
  max_tokens: 100,
  n: 3,
  user: 'u1',
};

describe('xunfei versions', () => {
  it('maps models to versions, domains and paths', () => {
    expect(sparkVersion('Spark-Lite', undefined)).toBe('v1.1');
    expect(sparkVersion('Spark-Pro-128K', undefined)).toBe('v3.1-128K');
    expect(sparkVersion('SparkDesk-v2.1', undefined)).toBe('v2.1');
    expect(sparkVersion('SparkDesk', 'v3.5')).toBe('v3.5');
    expect(sparkVersion('custom', undefined)).toBe('v1.1');
    expect([sparkDomain('v3.5'), sparkDomain('v4.0'), sparkDomain('v9.9')]).toEqual([
      'generalv3.5',
      '4.0Ultra',
      'generalv9.9',
    ]);
    expect([sparkPath('v3.5'), sparkPath('v3.1-128K'), sparkPath('v3.5-32K')]).toEqual([
      '/v3.5/chat',
      '/chat/pro-128k',
      '/chat/max-32k',
    ]);
  });

  it('parses APPID|APISecret|APIKey and refuses other shapes', () => {
    expect(parseXunfeiKey(key)).toEqual({ appId: 'app1', apiSecret: 'secret1', apiKey: 'key1' });
    expect(() => parseXunfeiKey('app1|secret1')).toThrow('APPID|APISecret|APIKey');
  });
});

describe('xunfei request', () => {
  it('signs the handshake URL over host, date and request line', () => {
    const date = new Date('2024-03-01T08:00:00Z');
    const request = buildXunfeiRequest(relayCall({ body, key, baseUrl: 'wss://spark-api.xf-yun.com' }), date);
    const url = new URL(request.url);
    expect(url.origin + url.pathname).toBe('wss://spark-api.xf-yun.com/v3.5/chat');
    expect(url.searchParams.get('date')).toBe('Fri, 01 Mar 2024 08:00:00 GMT');
    expect(url.searchParams.get('host')).toBe('spark-api.xf-yun.com');
    const signature = createHmac('sha256', 'secret1')
      .update('host: spark-api.xf-yun.com\ndate: Fri, 01 Mar 2024 08:00:00 GMT\nGET /v3.5/chat HTTP/1.1')
      .digest('base64');
    expect(Buffer.from(url.searchParams.get('authorization')!, 'base64').toString()).toBe(
      `api_key="key1", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`,
    );
    expect(JSON.parse(String(request.body))).toEqual({
      header: { app_id: 'app1', uid: 'u1' },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 100 } },
      payload: {
        message: {
          text: [
            { role: 'system', content: 'terse' },
            { role: 'user', content: '你好' },
          ],
        },
      },
    });
  });

  it('sends functions only to domains that take them, and turns http bases into ws', () => {
    const withTools = JSON.parse(String(buildXunfeiRequest(relayCall({ body: { ...body, tools }, key })).body));
    expect(withTools.payload.functions.text[0].name).toBe('get_weather');
    const lite = buildXunfeiRequest(
      relayCall({ body: { ...body, model: 'Spark-Lite', tools }, key, baseUrl: 'http://127.0.0.1:7000' }),
    );
    expect(lite.url.startsWith('ws://127.0.0.1:7000/v1.1/chat?')).toBe(true);
    expect(JSON.parse(String(lite.body)).payload.functions).toBeUndefined();
  });
});

describe('xunfei response', () => {
  const call = relayCall({ body, key });

  it('collects frames into one answer with usage', () => {
    const result = readXunfeiResponse(wholeResponse(fixture('xunfei', 'stream.jsonl')), call);
    expect(JSON.parse(result.body.toString()).choices[0]).toMatchObject({
      message: { content: '你好！我是讯飞星火。' },
      finish_reason: 'stop',
    });
    expect(result.usage).toEqual({ prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 });
  });

  it('turns a function_call into a tool call', () => {
    const choice = JSON.parse(
      readXunfeiResponse(wholeResponse(fixture('xunfei', 'function-call.jsonl')), call).body.toString(),
    ).choices[0];
    expect(choice).toMatchObject({
      finish_reason: 'tool_calls',
      message: { tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"合肥"}' } }] },
    });
  });

  it('maps error frames and refused handshakes', () => {
    expect(() => readXunfeiResponse(wholeResponse(fixture('xunfei', 'error.jsonl')), call)).toThrow(
      '输入内容审核不通过',
    );
    expect(readXunfeiError(wholeResponse(fixture('xunfei', 'handshake-error.json'), 401))).toMatchObject({
      status: 401,
      message: 'HMAC signature does not match',
    });
  });

  it('treats a socket closed before the last frame as a cut answer', async () => {
    const cut = fixture('xunfei', 'stream.jsonl').trim().split('\n').slice(0, 2).join('\n');
    expect(() => readXunfeiResponse(wholeResponse(cut), call)).toThrow('closed before the last frame');
    await expect(collect(readXunfeiStream(pieces(cut), call))).rejects.toMatchObject({ status: 502 });
  });

  it('streams frames as chunks', async () => {
    const { chunks, content, usage, last } = await collect(
      readXunfeiStream(pieces(fixture('xunfei', 'stream.jsonl')), call),
    );
    expect(chunks).toHaveLength(3);
    expect(content).toBe('你好！我是讯飞星火。');
    expect(last!.choices[0].finish_reason).toBe('stop');
    expect(usage?.total_tokens).toBe(14);
    await expect(collect(readXunfeiStream(pieces(fixture('xunfei', 'error.jsonl')), call))).rejects.toMatchObject({
      status: 400,
      body: { code: '10013' },
    });
  });
});

describe('xunfei mock upstream over a real WebSocket', () => {
  const mock = startedForSuite(() => startXunfeiMock({ appId: 'app1', apiSecret: 'secret1', apiKey: 'key1' }));

  it('accepts the signed handshake and answers whole and streamed', async () => {
    const call = relayCall({ body, key, baseUrl: mock.url });
    const socket = await openSparkSocket(buildXunfeiRequest(call));
    expect(socket.status).toBe(200);
    const result = readXunfeiResponse(
      { status: 200, headers: socket.headers, body: await readSocketBody(socket.body) },
      call,
    );
    expect(result.usage?.total_tokens).toBe(14);
    expect(mock.frames.at(-1)!.frame.parameter.chat.domain).toBe('generalv3.5');

    const streamCall = relayCall({
      body: { ...body, stream: true, model: 'Spark-4.0-Ultra', tools },
      key,
      baseUrl: mock.url,
    });
    const streamed = await collect(
      readXunfeiStream((await openSparkSocket(buildXunfeiRequest(streamCall))).body, streamCall),
    );
    expect(streamed.last!.choices[0].finish_reason).toBe('tool_calls');
  });

  it('refuses a wrong secret and a stale date at the handshake', async () => {
    const wrong = await openSparkSocket(
      buildXunfeiRequest(relayCall({ body, key: 'app1|other|key1', baseUrl: mock.url })),
    );
    expect(
      readXunfeiError({ status: wrong.status, headers: wrong.headers, body: await readSocketBody(wrong.body) }),
    ).toMatchObject({ status: 401, message: 'HMAC signature does not match' });
    const stale = await openSparkSocket(
      buildXunfeiRequest(relayCall({ body, key, baseUrl: mock.url }), new Date(Date.now() - 3600_000)),
    );
    expect(stale.status).toBe(403);
  });

  it('ends an aborted call with an error', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      openSparkSocket(buildXunfeiRequest(relayCall({ body, key, baseUrl: mock.url })), { signal: controller.signal }),
    ).rejects.toMatchObject({ retryable: true });
  });

  it('reports an unreachable server as a retryable transport error', async () => {
    await expect(
      openSparkSocket({ url: 'ws://127.0.0.1:9/v1.1/chat', method: 'GET', headers: {} }),
    ).rejects.toMatchObject({ retryable: true });
  });
});
