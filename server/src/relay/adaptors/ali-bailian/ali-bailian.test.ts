import { describe, expect, it } from 'vitest';
import { startAliBailianMock } from '../../../../test/mock-upstreams/ali-bailian.js';
import { refusal, streamedAnswer, wholeAnswer } from '../../../../test/compatible-round-trip.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { aliBailian } from './index.js';

const body = { model: 'qwen-plus', messages: [{ role: 'user', content: '你好' }] };

describe('ali bailian (compatible mode)', () => {
  const mock = startedForSuite(() => startAliBailianMock({ apiKey: 'sk-bl' }));

  it('answers chat, stream (data: without a space) and embeddings under /compatible-mode/v1', async () => {
    const call = relayCall({ body, key: 'sk-bl', baseUrl: mock.url });
    expect(aliBailian.buildRequest(call).url).toBe(`${mock.url}/compatible-mode/v1/chat/completions`);
    expect((await wholeAnswer(aliBailian, call)).usage?.total_tokens).toBe(16);
    const streamCall = relayCall({ body: { ...body, stream: true }, key: 'sk-bl', baseUrl: mock.url });
    expect(JSON.parse(String(aliBailian.buildRequest(streamCall).body)).stream_options).toEqual({
      include_usage: true,
    });
    const streamed = await streamedAnswer(aliBailian, streamCall);
    expect(streamed.content).toBe('你好！我是通义千问。');
    expect(streamed.usage?.total_tokens).toBe(16);
    const embeddings = relayCall({
      mode: 'embeddings',
      body: { model: 'text-embedding-v3', input: 'a' },
      key: 'sk-bl',
      baseUrl: mock.url,
    });
    expect((await wholeAnswer(aliBailian, embeddings)).usage?.total_tokens).toBe(3);
    const wrong = relayCall({ body, key: 'x', baseUrl: mock.url });
    expect(await refusal(aliBailian, wrong)).toMatchObject({
      status: 401,
      code: 'invalid_api_key',
      message: 'Incorrect API key provided. ',
    });
  });
});
