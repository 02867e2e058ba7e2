import { describe, expect, test } from 'vitest';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { palmMockKey, startPalmMock } from '../../../../test/mock-upstreams/palm.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { UpstreamError } from '../../upstream-error.js';
import { readGeminiError } from '../gemini/response.js';
import { buildPalmRequest, toPalmRequest } from './request.js';
import { readPalmResponse } from './response.js';
import { readPalmStream } from './stream.js';

const chat = (body: Record<string, unknown>, baseUrl?: string) =>
  relayCall({
    body: { model: 'PaLM-2', messages: [{ role: 'user', content: 'hi' }], ...body },
    key: palmMockKey,
    baseUrl,
  });

describe('palm', () => {
  test('request: context, authors, no max_tokens as topK', () => {
    expect(
      toPalmRequest({
        model: 'PaLM-2',
        messages: [
          { role: 'system', content: 'terse' },
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
        max_tokens: 30,
        temperature: 0.2,
      }),
    ).toEqual({
      prompt: {
        context: 'terse',
        messages: [
          { author: '0', content: 'hi' },
          { author: '1', content: 'hello' },
        ],
      },
      candidateCount: 1,
      temperature: 0.2,
    });
    const request = buildPalmRequest(chat({}, 'https://generativelanguage.googleapis.com'));
    expect(request.url).toBe('https://generativelanguage.googleapis.com/v1beta2/models/chat-bison-001:generateMessage');
    expect(request.headers['x-goog-api-key']).toBe(palmMockKey);
  });

  test('answers, filtered answers, one-chunk stream, errors', async () => {
    expect(
      JSON.parse(
        readPalmResponse(
          { status: 200, headers: {}, body: fixtureBytes('palm', 'generate-message.json') },
          chat({}),
        ).body.toString(),
      ).choices[0].message.content,
    ).toBe('Hello! How can I help you today?');
    expect(
      JSON.parse(
        readPalmResponse(
          { status: 200, headers: {}, body: fixtureBytes('palm', 'filtered.json') },
          chat({}),
        ).body.toString(),
      ).choices[0].finish_reason,
    ).toBe('content_filter');
    const stream = await collect(
      readPalmStream(pieces(fixture('palm', 'generate-message.json')), chat({ stream: true })),
    );
    expect(stream.content).toBe('Hello! How can I help you today?');
    expect(stream.finishReason).toBe('stop');
    expect(
      readGeminiError({ status: 400, headers: {}, body: fixtureBytes('palm', 'error-invalid-key.json') }),
    ).toMatchObject({ message: 'API key not valid. Please pass a valid API key.' });
    expect(() =>
      readPalmResponse({ status: 200, headers: {}, body: fixtureBytes('palm', 'error-invalid-key.json') }, chat({})),
    ).toThrow(UpstreamError);
  });

  describe('mock', () => {
    const mock = startedForSuite(() => startPalmMock());
    test('accepts our request', async () => {
      const call = chat({}, mock.url);
      const answer = await sendWhole(buildPalmRequest(call));
      expect(answer.status).toBe(200);
      expect(readPalmResponse(answer, call).text).toBe('Hello! How can I help you today?');
    });
  });
});
