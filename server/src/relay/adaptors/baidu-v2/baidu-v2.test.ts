import { describe, expect, it } from 'vitest';
import { startBaiduV2Mock } from '../../../../test/mock-upstreams/baidu-v2.js';
import { refusal, streamedAnswer, wholeAnswer } from '../../../../test/compatible-round-trip.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { baiduV2 } from './index.js';

const key = 'bce-v3/ALTAK-mock/abcdef';
const body = { model: 'ERNIE-4.0-8K', messages: [{ role: 'user', content: '你好' }] };

describe('baidu v2 (Qianfan)', () => {
  it('sends lower-case model ids to /v2/chat/completions and refuses a v1 key pair', () => {
    const request = baiduV2.buildRequest(relayCall({ body, key, baseUrl: 'https://qianfan.baidubce.com' }));
    expect(request.url).toBe('https://qianfan.baidubce.com/v2/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${key}`);
    expect(JSON.parse(String(request.body)).model).toBe('ernie-4.0-8k');
    expect(() => baiduV2.buildRequest(relayCall({ body, key: 'ak|sk' }))).toThrow('bce-v3');
  });

  describe('against the mock', () => {
    const mock = startedForSuite(() => startBaiduV2Mock({ apiKey: key }));

    it('answers whole and streamed, maps the IAM error', async () => {
      const call = relayCall({ body, key, baseUrl: mock.url });
      expect((await wholeAnswer(baiduV2, call)).usage?.total_tokens).toBe(10);
      const streamCall = relayCall({ body: { ...body, stream: true }, key, baseUrl: mock.url });
      expect((await streamedAnswer(baiduV2, streamCall)).content).toBe('你好！我是文心一言。');
      const wrong = relayCall({ body, key: 'bce-v3/other', baseUrl: mock.url });
      expect(await refusal(baiduV2, wrong)).toMatchObject({
        status: 401,
        code: 'invalid_iam_token',
      });
    });
  });
});
