import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole, wholeResponse } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { startMinimaxMock } from '../../../../test/mock-upstreams/minimax.js';
import { streamedAnswer, wholeAnswer } from '../../../../test/compatible-round-trip.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { minimax } from './index.js';

const body = { model: 'abab6.5s-chat', messages: [{ role: 'user', content: '你好' }] };

describe('minimax', () => {
  it('posts to chatcompletion_v2 with a Bearer key', () => {
    const request = minimax.buildRequest(relayCall({ body, key: 'mm-key', baseUrl: 'https://api.minimax.chat' }));
    expect(request.url).toBe('https://api.minimax.chat/v1/text/chatcompletion_v2');
    expect(request.headers.authorization).toBe('Bearer mm-key');
  });

  it('reads answers and finds base_resp errors sent with HTTP 200', () => {
    const call = relayCall({ body });
    expect(minimax.readResponse(wholeResponse(fixture('minimax', 'chat.json')), call).usage).toEqual({
      prompt_tokens: 20,
      completion_tokens: 10,
      total_tokens: 30,
    });
    expect(() => minimax.readResponse(wholeResponse(fixture('minimax', 'error.json')), call)).toThrow('login fail');
    expect(minimax.readError(wholeResponse(fixture('minimax', 'error.json')), call)).toMatchObject({
      status: 401,
      code: '1004',
    });
    expect(
      minimax.readError(wholeResponse('{"base_resp":{"status_code":1008,"status_msg":"insufficient balance"}}'), call),
    ).toMatchObject({ status: 403, type: 'insufficient_quota' });
  });

  it('turns the final whole-message event into a finishing chunk with usage', async () => {
    const { chunks, content, usage, last } = await collect(
      minimax.readStream(pieces(fixture('minimax', 'stream.sse')), relayCall({ body })),
    );
    expect(content).toBe('你好！我是 MiniMax 助手。');
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.choices[0].delta)).toBe(true);
    expect(last!.choices[0]).toMatchObject({ finish_reason: 'stop', delta: {} });
    expect(usage).toEqual({ prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 });
    expect(chunks[0]!.usage).toBeUndefined();
  });

  describe('against the mock', () => {
    const mock = startedForSuite(() => startMinimaxMock({ apiKey: 'mm-key' }));

    it('answers, streams and refuses a wrong key with HTTP 200', async () => {
      const call = relayCall({ body, key: 'mm-key', baseUrl: mock.url });
      expect((await wholeAnswer(minimax, call)).usage?.total_tokens).toBe(30);
      const streamCall = relayCall({ body: { ...body, stream: true }, key: 'mm-key', baseUrl: mock.url });
      expect((await streamedAnswer(minimax, streamCall)).usage?.total_tokens).toBe(30);
      const wrong = relayCall({ body, key: 'other', baseUrl: mock.url });
      const refused = await sendWhole(minimax.buildRequest(wrong));
      expect(refused.status).toBe(200);
      expect(() => minimax.readResponse(refused, wrong)).toThrow('login fail');
    });
  });
});
