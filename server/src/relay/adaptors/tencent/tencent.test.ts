import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import {
  collect,
  pieces,
  sendStreaming,
  sendWhole,
  wholeResponse,
} from '../../../../test/mock-upstreams/relay-call-kit.js';
import { startTencentMock } from '../../../../test/mock-upstreams/tencent.js';
import { describedWeatherTool, terseGreeting, weatherToolTurn } from '../../../../test/chat-fixtures.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { buildTencentRequest, parseTencentKey } from './request.js';
import { readTencentError, readTencentResponse } from './response.js';
import { readTencentStream } from './stream.js';

const key = '1300000000|AKIDmock|secretmock';
const tools = [describedWeatherTool];
const body = {
  model: 'hunyuan-lite',
  messages: terseGreeting,
  temperature: 0.7,
  top_p: 0.8,
};

/** The signature written out step by step from Tencent's documentation, to check the signer against. */
function documentedSignature(
  secretKey: string,
  host: string,
  action: string,
  payload: string,
  timestamp: number,
): string {
  const sha = (value: string) => createHash('sha256').update(value).digest('hex');
  const canonical = `POST\n/\n\ncontent-type:application/json\nhost:${host}\nx-tc-action:${action.toLowerCase()}\n\ncontent-type;host;x-tc-action\n${sha(payload)}`;
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/hunyuan/tc3_request\n${sha(canonical)}`;
  const kDate = createHmac('sha256', `TC3${secretKey}`).update(date).digest();
  const kService = createHmac('sha256', kDate).update('hunyuan').digest();
  const kSigning = createHmac('sha256', kService).update('tc3_request').digest();
  return createHmac('sha256', kSigning).update(toSign).digest('hex');
}

describe('tencent request', () => {
  it('parses AppId|SecretId|SecretKey and refuses a non-numeric AppId', () => {
    expect(parseTencentKey(key)).toEqual({ appId: '1300000000', secretId: 'AKIDmock', secretKey: 'secretmock' });
    expect(() => parseTencentKey('AKIDmock|secretmock')).toThrow('AppId|SecretId|SecretKey');
    expect(() => parseTencentKey('AKIDmock|secretmock|x')).toThrow('numeric AppId');
  });

  it('builds the PascalCase body and signs it with TC3-HMAC-SHA256', () => {
    const now = Date.UTC(2024, 5, 10, 6, 0, 0);
    const request = buildTencentRequest(relayCall({ body, key, baseUrl: 'https://hunyuan.tencentcloudapi.com' }), now);
    expect(request.url).toBe('https://hunyuan.tencentcloudapi.com/');
    expect(JSON.parse(String(request.body))).toEqual({
      Model: 'hunyuan-lite',
      Messages: [
        { Role: 'system', Content: 'terse' },
        { Role: 'user', Content: '你好' },
      ],
      Stream: false,
      TopP: 0.8,
      Temperature: 0.7,
    });
    const signature = documentedSignature(
      'secretmock',
      'hunyuan.tencentcloudapi.com',
      'ChatCompletions',
      String(request.body),
      now / 1000,
    );
    expect(request.headers).toMatchObject({
      'x-tc-action': 'ChatCompletions',
      'x-tc-version': '2023-09-01',
      'x-tc-timestamp': String(now / 1000),
    });
    expect(request.headers.authorization).toBe(
      `TC3-HMAC-SHA256 Credential=AKIDmock/2024-06-10/hunyuan/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=${signature}`,
    );
  });

  it('sends tools with JSON-string parameters and tool turns with their ids', () => {
    const messages = weatherToolTurn('深圳天气');
    const sent = JSON.parse(
      String(
        buildTencentRequest(
          relayCall({
            body: { ...body, messages, tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } },
            key,
          }),
        ).body,
      ),
    );
    expect(sent.Tools[0].Function.Parameters).toBe(JSON.stringify(tools[0]!.function.parameters));
    expect(sent.ToolChoice).toBe('custom');
    expect(sent.Messages[1].ToolCalls[0]).toEqual({
      Id: 'c1',
      Type: 'function',
      Function: { Name: 'get_weather', Arguments: '{}' },
    });
    expect(sent.Messages[2]).toEqual({ Role: 'tool', Content: '晴', ToolCallId: 'c1' });
    const vision = [
      {
        role: 'user',
        content: [
          { type: 'text', text: '这是什么' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    ];
    const visionBody = JSON.parse(
      String(buildTencentRequest(relayCall({ body: { model: 'hunyuan-vision', messages: vision }, key })).body),
    );
    expect(visionBody.Messages[0]).toEqual({
      Role: 'user',
      Contents: [
        { Type: 'text', Text: '这是什么' },
        { Type: 'image_url', ImageUrl: { Url: 'data:image/png;base64,AAAA' } },
      ],
    });
    const embeddings = buildTencentRequest(
      relayCall({ mode: 'embeddings', body: { model: 'hunyuan-embedding', input: ['a'] }, key }),
    );
    expect(embeddings.headers['x-tc-action']).toBe('GetEmbedding');
    expect(JSON.parse(String(embeddings.body))).toEqual({ InputList: ['a'] });
  });
});

describe('tencent response', () => {
  const call = relayCall({ body, key });

  it('converts answers, tool calls, embeddings and 200 errors', () => {
    const result = readTencentResponse(wholeResponse(fixture('tencent', 'chat.json')), call);
    expect(JSON.parse(result.body.toString()).choices[0]).toMatchObject({
      message: { content: '你好！我是腾讯混元。' },
      finish_reason: 'stop',
    });
    expect(result.usage).toEqual({ prompt_tokens: 3, completion_tokens: 7, total_tokens: 10 });
    const tool = JSON.parse(
      readTencentResponse(wholeResponse(fixture('tencent', 'chat-tool-call.json')), call).body.toString(),
    ).choices[0];
    expect(tool).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: null,
        tool_calls: [{ id: 'call_cq8a3n2l3mbd0r4f5sc0', function: { arguments: '{"city":"深圳"}' } }],
      },
    });
    const embeddings = readTencentResponse(
      wholeResponse(fixture('tencent', 'embeddings.json')),
      relayCall({ mode: 'embeddings', body: { model: 'hunyuan-embedding', input: ['a', 'b'] } }),
    );
    expect(JSON.parse(embeddings.body.toString()).data).toHaveLength(2);
    expect(() => readTencentResponse(wholeResponse(fixture('tencent', 'error.json')), call)).toThrow(
      'could not be validated',
    );
    expect(readTencentError(wholeResponse(fixture('tencent', 'error.json')))).toMatchObject({
      status: 401,
      code: 'AuthFailure.SignatureFailure',
    });
    expect(
      readTencentError(
        wholeResponse(
          '{"Response":{"Error":{"Code":"ResourceInsufficient.ChargeResourceExhaust","Message":"计费资源已耗尽"}}}',
        ),
      ),
    ).toMatchObject({ status: 403, type: 'insufficient_quota' });
  });

  it('converts the stream with usage on the finishing chunk', async () => {
    const { chunks, content, usage, last } = await collect(
      readTencentStream(pieces(fixture('tencent', 'stream.sse')), call),
    );
    expect(content).toBe('你好！我是腾讯混元。');
    expect(chunks[0]!.choices[0].delta.role).toBe('assistant');
    expect(chunks[0]!.choices[0].finish_reason).toBeNull();
    expect(last!.choices[0].finish_reason).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 3, completion_tokens: 7, total_tokens: 10 });
  });
});

describe('tencent streamed tool calls', () => {
  it('streams tool-call fragments by index and finishes with tool_calls', async () => {
    const call = relayCall({ body: { ...body, tools, stream: true }, key });
    const { chunks, usage, last } = await collect(
      readTencentStream(pieces(fixture('tencent', 'stream-tool-call.sse')), call),
    );
    expect(chunks[0]!.choices[0].delta.tool_calls[0]).toEqual({
      index: 0,
      id: 'call_cq8b1f2l3mbd0r4f5sd0',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":' },
    });
    expect(chunks[1]!.choices[0].delta.tool_calls[0]).toEqual({ index: 0, function: { arguments: '"深圳"}' } });
    expect(last!.choices[0].finish_reason).toBe('tool_calls');
    expect(usage?.total_tokens).toBe(104);
  });
});

describe('tencent mock upstream', () => {
  const mock = startedForSuite(() => startTencentMock({ secretId: 'AKIDmock', secretKey: 'secretmock' }));

  it('verifies our signature and answers chat, tools, stream and embeddings', async () => {
    const call = relayCall({ body, key, baseUrl: mock.url });
    expect(readTencentResponse(await sendWhole(buildTencentRequest(call)), call).usage?.total_tokens).toBe(10);
    const toolCall = relayCall({ body: { ...body, tools }, key, baseUrl: mock.url });
    expect(
      JSON.parse(readTencentResponse(await sendWhole(buildTencentRequest(toolCall)), toolCall).body.toString())
        .choices[0].finish_reason,
    ).toBe('tool_calls');
    const streamCall = relayCall({ body: { ...body, stream: true }, key, baseUrl: mock.url });
    expect((await collect(readTencentStream(sendStreaming(buildTencentRequest(streamCall)), streamCall))).content).toBe(
      '你好！我是腾讯混元。',
    );
    const embeddingsCall = relayCall({
      mode: 'embeddings',
      body: { model: 'hunyuan-embedding', input: 'a' },
      key,
      baseUrl: mock.url,
    });
    expect(
      JSON.parse(
        readTencentResponse(await sendWhole(buildTencentRequest(embeddingsCall)), embeddingsCall).body.toString(),
      ).data,
    ).toHaveLength(1);
  });

  it('refuses a wrong secret and a stale timestamp', async () => {
    const wrong = relayCall({ body, key: '1300000000|AKIDmock|other', baseUrl: mock.url });
    expect(() => readTencentResponse(wholeResponse(''), wrong)).toThrow();
    const refused = await sendWhole(buildTencentRequest(wrong));
    expect(readTencentError(refused)).toMatchObject({ status: 401, code: 'AuthFailure.SignatureFailure' });
    const stale = await sendWhole(
      buildTencentRequest(relayCall({ body, key, baseUrl: mock.url }), Date.now() - 3600_000),
    );
    expect(readTencentError(stale)).toMatchObject({ code: 'AuthFailure.SignatureExpire', status: 401 });
  });
});
