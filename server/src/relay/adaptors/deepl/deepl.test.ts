import { describe, expect, test } from 'vitest';
import { deeplMockKey, startDeeplMock } from '../../../../test/mock-upstreams/deepl.js';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { readErrorBody } from '../openai/response.js';
import { buildDeeplRequest, deeplTargetLanguage } from './request.js';
import { readDeeplResponse } from './response.js';
import { readDeeplStream } from './stream.js';

const chat = (body: Record<string, unknown>, baseUrl?: string) =>
  relayCall({
    body: {
      model: 'deepl-zh',
      messages: [
        { role: 'user', content: 'earlier' },
        { role: 'user', content: 'Hello, world!' },
      ],
      ...body,
    },
    key: deeplMockKey,
    baseUrl,
  });

describe('deepl', () => {
  test('target language from the model name', () => {
    expect(deeplTargetLanguage('deepl-zh')).toBe('ZH');
    expect(deeplTargetLanguage('deepl-en')).toBe('EN-US');
    expect(deeplTargetLanguage('deepl-ja')).toBe('JA');
    expect(deeplTargetLanguage('deepl')).toBe('ZH');
  });

  test('request: last message, auth header', () => {
    const request = buildDeeplRequest(chat({}, 'https://api-free.deepl.com'));
    expect(request.url).toBe('https://api-free.deepl.com/v2/translate');
    expect(request.headers.authorization).toBe(`DeepL-Auth-Key ${deeplMockKey}`);
    expect(JSON.parse(String(request.body))).toEqual({ text: ['Hello, world!'], target_lang: 'ZH' });
  });

  test('answer and one-chunk stream, characters billed as prompt', async () => {
    const result = readDeeplResponse(
      { status: 200, headers: {}, body: fixtureBytes('deepl', 'translate.json') },
      chat({}),
    );
    expect(JSON.parse(result.body.toString()).choices[0]).toMatchObject({
      message: { content: '你好，世界！' },
      finish_reason: 'stop',
    });
    expect(result.usage).toEqual({ prompt_tokens: 13, completion_tokens: 0, total_tokens: 13 });
    const stream = await collect(readDeeplStream(pieces(fixture('deepl', 'translate.json')), chat({ stream: true })));
    expect(stream.content).toBe('你好，世界！');
    expect(stream.finishReason).toBe('stop');
    expect(stream.usage?.prompt_tokens).toBe(13);
  });

  test('errors keep DeepL message', () => {
    expect(readErrorBody(456, fixtureBytes('deepl', 'error-quota-exceeded.json'))).toMatchObject({
      status: 456,
      message: 'Quota Exceeded',
    });
  });

  describe('mock', () => {
    const mock = startedForSuite(() => startDeeplMock());
    test('accepts our request, refuses a bad key', async () => {
      const call = chat({}, mock.url);
      expect(
        JSON.parse(readDeeplResponse(await sendWhole(buildDeeplRequest(call)), call).body.toString()).choices[0].message
          .content,
      ).toBe('你好，世界！');
      expect((await sendWhole(buildDeeplRequest({ ...call, channel: { ...call.channel, key: 'bad' } }))).status).toBe(
        403,
      );
    });
  });
});
