import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, wholeResponse } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { startXunfeiV2Mock } from '../../../../test/mock-upstreams/xunfei-v2.js';
import { refusal, streamedAnswer, wholeAnswer } from '../../../../test/compatible-round-trip.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { xunfeiV2 } from './index.js';

const body = { model: 'generalv3.5', messages: [{ role: 'user', content: '你好' }] };

describe('xunfei v2 (HTTP)', () => {
  it('reads answers and streams, and maps code errors', async () => {
    const call = relayCall({ body });
    expect(
      xunfeiV2.buildRequest(relayCall({ body, key: 'pw', baseUrl: 'https://spark-api-open.xf-yun.com' })).url,
    ).toBe('https://spark-api-open.xf-yun.com/v1/chat/completions');
    expect(xunfeiV2.readResponse(wholeResponse(fixture('xunfei-v2', 'chat.json')), call).usage?.total_tokens).toBe(13);
    const streamed = await collect(xunfeiV2.readStream(pieces(fixture('xunfei-v2', 'stream.sse')), call));
    expect(streamed.content).toBe('你好！我是讯飞星火认知大模型。');
    expect(streamed.usage?.total_tokens).toBe(13);
    expect(() => xunfeiV2.readResponse(wholeResponse(fixture('xunfei-v2', 'error.json')), call)).toThrow(
      'auth no license',
    );
    expect(xunfeiV2.readError(wholeResponse(fixture('xunfei-v2', 'error.json'), 200), call)).toMatchObject({
      status: 401,
      code: '11200',
    });
    expect(
      xunfeiV2.readError(wholeResponse('{"code":11202,"message":"qps limit","sid":"s"}', 200), call),
    ).toMatchObject({ status: 429 });
  });

  describe('against the mock', () => {
    const mock = startedForSuite(() => startXunfeiV2Mock({ apiPassword: 'pw' }));

    it('answers with the right password and model, refuses otherwise', async () => {
      const call = relayCall({ body, key: 'pw', baseUrl: mock.url });
      expect((await wholeAnswer(xunfeiV2, call)).usage?.total_tokens).toBe(13);
      const streamCall = relayCall({ body: { ...body, stream: true }, key: 'pw', baseUrl: mock.url });
      expect((await streamedAnswer(xunfeiV2, streamCall)).content).toContain('星火');
      const wrongModel = relayCall({ body: { ...body, model: 'Spark-Max' }, key: 'pw', baseUrl: mock.url });
      expect(await refusal(xunfeiV2, wrongModel)).toMatchObject({
        status: 400,
        code: '10404',
      });
      const wrongKey = relayCall({ body, key: 'nope', baseUrl: mock.url });
      expect(await refusal(xunfeiV2, wrongKey)).toMatchObject({
        status: 401,
        code: '11200',
      });
    });
  });
});
