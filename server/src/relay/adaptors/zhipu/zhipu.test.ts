import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import {
  collect,
  pieces,
  sendStreaming,
  sendWhole,
  wholeResponse,
} from '../../../../test/mock-upstreams/relay-call-kit.js';
import { startZhipuMock, zhipuAuthorizationValid } from '../../../../test/mock-upstreams/zhipu.js';
import { terseGreeting } from '../../../../test/chat-fixtures.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { buildZhipuRequest } from './request.js';
import { readZhipuError, readZhipuResponse } from './response.js';
import { readZhipuStream } from './stream.js';
import { parseZhipuKey, zhipuToken } from './token.js';

const key = 'abc123.s3cr3t';
const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
const v4Body = {
  model: 'glm-4',
  messages: [{ role: 'user', content: '你好' }],
  temperature: 1.5,
  top_p: 0,
  tool_choice: 'required',
};
const v3Body = {
  model: 'chatglm_turbo',
  messages: terseGreeting,
  temperature: 0.5,
};

describe('zhipu key and token', () => {
  it('signs an HS256 JWT with millisecond claims and caches it', () => {
    const token = zhipuToken(key);
    const [head, claims] = token.split('.');
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toEqual({
      alg: 'HS256',
      sign_type: 'SIGN',
      typ: 'JWT',
    });
    const parsed = JSON.parse(Buffer.from(claims!, 'base64url').toString());
    expect(parsed.api_key).toBe('abc123');
    expect(parsed.exp - parsed.timestamp).toBe(24 * 3600 * 1000);
    expect(parsed.timestamp).toBeGreaterThan(1e12);
    expect(zhipuToken(key)).toBe(token);
    expect(zhipuAuthorizationValid(token, 'abc123', 's3cr3t')).toBe(true);
    expect(zhipuAuthorizationValid(token, 'abc123', 'other')).toBe(false);
  });

  it('rejects keys without exactly one dot', () => {
    for (const bad of ['nodot', 'a.b.c', '.b', 'a.'])
      expect(() => parseZhipuKey(bad)).toThrow('expected <id>.<secret>');
  });
});

describe('zhipu request', () => {
  it('sends glm-* to v4 with sampling clamped to (0,1) and tool_choice auto', () => {
    const request = buildZhipuRequest(relayCall({ body: v4Body, key, baseUrl: 'https://open.example' }));
    expect(request.url).toBe('https://open.example/api/paas/v4/chat/completions');
    expect(request.headers.authorization).toBe(zhipuToken(key));
    expect(JSON.parse(String(request.body))).toMatchObject({
      model: 'glm-4',
      temperature: 0.99,
      top_p: 0.01,
      tool_choice: 'auto',
    });
  });

  it('sends other chat models to v3 invoke / sse-invoke', () => {
    const whole = buildZhipuRequest(relayCall({ body: v3Body, key }));
    expect(whole.url).toMatch(/\/api\/paas\/v3\/model-api\/chatglm_turbo\/invoke$/);
    expect(JSON.parse(String(whole.body))).toEqual({
      prompt: [
        { role: 'user', content: 'terse' },
        { role: 'user', content: '你好' },
      ],
      incremental: false,
      temperature: 0.5,
    });
    expect(buildZhipuRequest(relayCall({ body: { ...v3Body, stream: true }, key })).url).toMatch(/\/sse-invoke$/);
  });

  it('sends embeddings and images to v4', () => {
    expect(
      buildZhipuRequest(relayCall({ mode: 'embeddings', body: { model: 'embedding-2', input: 'x' }, key })).url,
    ).toMatch(/\/api\/paas\/v4\/embeddings$/);
    expect(
      buildZhipuRequest(relayCall({ mode: 'images', body: { model: 'cogview-3', prompt: 'cat' }, key })).url,
    ).toMatch(/\/api\/paas\/v4\/images\/generations$/);
  });
});

describe('zhipu response', () => {
  const v4Call = relayCall({ body: v4Body, key });
  const v3Call = relayCall({ body: v3Body, key });

  it('reads v4 answers and tool calls', () => {
    const result = readZhipuResponse(wholeResponse(fixture('zhipu', 'v4-chat.json')), v4Call);
    expect(JSON.parse(result.body.toString())).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: '你好！我是智谱清言。' }, finish_reason: 'stop' }],
    });
    expect(result.usage).toEqual({ prompt_tokens: 8, completion_tokens: 9, total_tokens: 17 });
    const tool = JSON.parse(
      readZhipuResponse(wholeResponse(fixture('zhipu', 'v4-chat-tool-call.json')), v4Call).body.toString(),
    ).choices[0];
    expect(tool).toMatchObject({
      finish_reason: 'tool_calls',
      message: { tool_calls: [{ id: 'call_8239375684858667001', function: { name: 'get_weather' } }] },
    });
  });

  it('maps sensitive to content_filter', () => {
    const filtered = fixture('zhipu', 'v4-chat.json').replace('"stop"', '"sensitive"');
    expect(
      JSON.parse(readZhipuResponse(wholeResponse(filtered), v4Call).body.toString()).choices[0].finish_reason,
    ).toBe('content_filter');
  });

  it('reads v3 answers, unwrapping the quoted content', () => {
    const result = readZhipuResponse(wholeResponse(fixture('zhipu', 'v3-chat.json')), v3Call);
    expect(JSON.parse(result.body.toString()).choices[0].message.content).toBe(' 你好！我是ChatGLM。\n很高兴见到你。');
    expect(result.usage?.total_tokens).toBe(18);
    expect(() => readZhipuResponse(wholeResponse(fixture('zhipu', 'v3-error.json')), v3Call)).toThrow('Prompt 超长');
  });

  it('maps errors with their code and message', () => {
    expect(readZhipuError(wholeResponse(fixture('zhipu', 'v4-error.json'), 401))).toMatchObject({
      status: 401,
      code: '1002',
      message: expect.stringContaining('Authorization Token非法'),
    });
    expect(readZhipuError(wholeResponse('{"error":{"code":"1113","message":"您的账户已欠费"}}', 429))).toMatchObject({
      type: 'insufficient_quota',
    });
  });

  it('converts v4 and v3 streams', async () => {
    const v4 = await collect(readZhipuStream(pieces(fixture('zhipu', 'v4-stream.sse')), v4Call));
    expect(v4.content).toBe('你好！我是智谱清言。');
    expect(v4.chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(v4.usage?.total_tokens).toBe(17);
    const v3 = await collect(
      readZhipuStream(pieces(fixture('zhipu', 'v3-stream.sse')), relayCall({ body: { ...v3Body, stream: true } })),
    );
    expect(v3.content).toBe('你好！我是\nChatGLM。');
    expect(v3.last!.choices[0].finish_reason).toBe('stop');
    expect(v3.usage).toEqual({ prompt_tokens: 6, completion_tokens: 10, total_tokens: 16 });
  });
});

describe('zhipu streamed tool calls', () => {
  it('passes v4 tool-call chunks through with usage', async () => {
    const call = relayCall({ body: { ...v4Body, tools, stream: true }, key });
    const { last, usage } = await collect(readZhipuStream(pieces(fixture('zhipu', 'v4-stream-tool-call.sse')), call));
    expect(last!.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      delta: { tool_calls: [{ index: 0, id: 'call_8313807536837493001', function: { name: 'get_weather' } }] },
    });
    expect(usage?.total_tokens).toBe(135);
  });
});

describe('zhipu mock upstream', () => {
  const mock = startedForSuite(() => startZhipuMock({ id: 'abc123', secret: 's3cr3t' }));

  it('accepts our JWT on v4 and v3, whole and streamed, and refuses a wrong secret', async () => {
    const call = relayCall({ body: { ...v4Body, tools }, key, baseUrl: mock.url });
    expect(
      JSON.parse(readZhipuResponse(await sendWhole(buildZhipuRequest(call)), call).body.toString()).choices[0]
        .finish_reason,
    ).toBe('tool_calls');
    const streamCall = relayCall({ body: { ...v4Body, stream: true }, key, baseUrl: mock.url });
    expect((await collect(readZhipuStream(sendStreaming(buildZhipuRequest(streamCall)), streamCall))).content).toBe(
      '你好！我是智谱清言。',
    );
    const v3Stream = relayCall({ body: { ...v3Body, stream: true }, key, baseUrl: mock.url });
    expect(
      (await collect(readZhipuStream(sendStreaming(buildZhipuRequest(v3Stream)), v3Stream))).usage?.total_tokens,
    ).toBe(16);
    const wrong = relayCall({ body: v4Body, key: 'abc123.wrong', baseUrl: mock.url });
    const refused = await sendWhole(buildZhipuRequest(wrong));
    expect(readZhipuError(refused)).toMatchObject({ status: 401, code: '1002' });
    const wrongV3 = relayCall({ body: v3Body, key: 'abc123.wrong', baseUrl: mock.url });
    const refusedV3 = await sendWhole(buildZhipuRequest(wrongV3));
    expect(() => readZhipuResponse(refusedV3, wrongV3)).toThrow(/Authorization Token非法/);
  });
});
