import { describe, expect, it } from 'vitest';
import { startDoubaoMock } from '../../../../test/mock-upstreams/doubao.js';
import { refusal, streamedAnswer, wholeAnswer } from '../../../../test/compatible-round-trip.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { doubao } from './index.js';

const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
const body = { model: 'ep-20240601123456-abcde', messages: [{ role: 'user', content: '你好' }] };

describe('doubao', () => {
  it('uses the /api/v3 paths and asks for stream usage', () => {
    const request = doubao.buildRequest(
      relayCall({ body: { ...body, stream: true }, key: 'ark', baseUrl: 'https://ark.cn-beijing.volces.com' }),
    );
    expect(request.url).toBe('https://ark.cn-beijing.volces.com/api/v3/chat/completions');
    expect(JSON.parse(String(request.body)).stream_options).toEqual({ include_usage: true });
    expect(doubao.buildRequest(relayCall({ mode: 'embeddings', body: { model: 'ep-x', input: 'a' } })).url).toMatch(
      /\/api\/v3\/embeddings$/,
    );
  });

  describe('against the mock', () => {
    const mock = startedForSuite(() => startDoubaoMock({ apiKey: 'ark' }));

    it('answers chat, tools, stream and embeddings; maps Ark errors', async () => {
      const toolCall = relayCall({ body: { ...body, tools }, key: 'ark', baseUrl: mock.url });
      const answer = JSON.parse((await wholeAnswer(doubao, toolCall)).body.toString());
      expect(answer.choices[0].message.tool_calls[0].function.name).toBe('get_weather');
      const streamCall = relayCall({ body: { ...body, stream: true }, key: 'ark', baseUrl: mock.url });
      expect((await streamedAnswer(doubao, streamCall)).usage?.total_tokens).toBe(14);
      const embeddings = relayCall({
        mode: 'embeddings',
        body: { model: 'ep-embed', input: ['a'] },
        key: 'ark',
        baseUrl: mock.url,
      });
      expect((await wholeAnswer(doubao, embeddings)).usage?.total_tokens).toBe(3);
      const unknown = relayCall({ body: { ...body, model: 'Doubao-pro-32k' }, key: 'ark', baseUrl: mock.url });
      expect(await refusal(doubao, unknown)).toMatchObject({
        status: 404,
        code: 'InvalidEndpointOrModel.NotFound',
      });
      const wrong = relayCall({ body, key: 'x', baseUrl: mock.url });
      expect(await refusal(doubao, wrong)).toMatchObject({
        status: 401,
        code: 'AuthenticationError',
      });
    });
  });
});
