import { describe, expect, it } from 'vitest';
import { startBaichuanMock } from '../../../../test/mock-upstreams/baichuan.js';
import { refusal, streamedAnswer, wholeAnswer } from '../../../../test/compatible-round-trip.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { baichuan } from './index.js';

const body = {
  model: 'Baichuan4',
  messages: [{ role: 'user', content: [{ type: 'text', text: '你好' }] }],
  logprobs: false,
  user: 'u1',
  stream: true,
};

describe('baichuan', () => {
  it('rebuilds the body with its own fields only and asks for stream usage', () => {
    const sent = JSON.parse(String(baichuan.buildRequest(relayCall({ body, key: 'bc' })).body));
    expect(sent).toEqual({
      model: 'Baichuan4',
      messages: [{ role: 'user', content: '你好' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  describe('against the mock', () => {
    const mock = startedForSuite(() => startBaichuanMock({ apiKey: 'bc' }));

    it('streams, answers, embeds and refuses a wrong key', async () => {
      const streamCall = relayCall({ body, key: 'bc', baseUrl: mock.url });
      const streamed = await streamedAnswer(baichuan, streamCall);
      expect(streamed.content).toBe('你好！我是百川大模型。');
      expect(streamed.usage?.total_tokens).toBe(15);
      const call = relayCall({ body: { ...body, stream: false }, key: 'bc', baseUrl: mock.url });
      expect((await wholeAnswer(baichuan, call)).usage?.total_tokens).toBe(15);
      const embeddings = relayCall({
        mode: 'embeddings',
        body: { model: 'Baichuan-Text-Embedding', input: 'x' },
        key: 'bc',
        baseUrl: mock.url,
      });
      expect((await wholeAnswer(baichuan, embeddings)).usage?.prompt_tokens).toBe(3);
      const wrong = relayCall({ body, key: 'no', baseUrl: mock.url });
      expect(await refusal(baichuan, wrong)).toMatchObject({
        status: 401,
        code: 'invalid_api_key',
      });
    });
  });
});
