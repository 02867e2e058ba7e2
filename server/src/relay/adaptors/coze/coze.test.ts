import { describe, expect, test } from 'vitest';
import { cozeMockBot, cozeMockToken, startCozeMock } from '../../../../test/mock-upstreams/coze.js';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { UpstreamError } from '../../upstream-error.js';
import { buildCozeRequest, toCozeRequest } from './request.js';
import { readCozeError, readCozeResponse } from './response.js';
import { readCozeStream } from './stream.js';

const chat = (body: Record<string, unknown>, baseUrl?: string) =>
  relayCall({
    body: { model: `bot-${cozeMockBot}`, ...body },
    key: cozeMockToken,
    config: { user_id: 'u-9' },
    baseUrl,
  });

describe('coze requests', () => {
  test('bot id from the model, user id, messages, images as object_string', () => {
    const body = toCozeRequest(
      {
        model: `bot-${cozeMockBot}`,
        messages: [
          { role: 'system', content: 'terse' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            ],
          },
          { role: 'assistant', content: 'a cat' },
          { role: 'user', content: 'thanks' },
        ],
      },
      'u-9',
    );
    expect(body).toEqual({
      bot_id: cozeMockBot,
      user_id: 'u-9',
      stream: true,
      auto_save_history: false,
      additional_messages: [
        { role: 'user', type: 'question', content: 'terse', content_type: 'text' },
        {
          role: 'user',
          type: 'question',
          content: JSON.stringify([
            { type: 'text', text: 'what is this?' },
            { type: 'image', file_url: 'https://example.com/a.png' },
          ]),
          content_type: 'object_string',
        },
        { role: 'assistant', type: 'answer', content: 'a cat', content_type: 'text' },
        { role: 'user', type: 'question', content: 'thanks', content_type: 'text' },
      ],
    });
  });

  test('URL and token', () => {
    const request = buildCozeRequest(chat({ messages: [] }, 'https://api.coze.com'));
    expect(request.url).toBe('https://api.coze.com/v3/chat');
    expect(request.headers.authorization).toBe(`Bearer ${cozeMockToken}`);
  });
});

describe('coze answers and streams', () => {
  test('stream: answer deltas only, usage from chat.completed', async () => {
    const result = await collect(
      readCozeStream(pieces(fixture('coze', 'chat-stream.sse')), chat({ messages: [], stream: true })),
    );
    expect(result.content).toBe('Hello from Coze!');
    expect(result.usage).toEqual({ prompt_tokens: 614, completion_tokens: 19, total_tokens: 633 });
    expect(result.finishReason).toBe('stop');
  });

  test('whole answer gathered from the stream', () => {
    const result = readCozeResponse(
      { status: 200, headers: {}, body: fixtureBytes('coze', 'chat-stream.sse') },
      chat({ messages: [] }),
    );
    expect(JSON.parse(result.body.toString()).choices[0].message.content).toBe('Hello from Coze!');
    expect(result.usage?.total_tokens).toBe(633);
  });

  test('failures: chat.failed and HTTP 200 {code,msg}', async () => {
    const failed = await collect(
      readCozeStream(pieces(fixture('coze', 'failed-stream.sse')), chat({ messages: [], stream: true })),
    );
    expect(failed.chunks.at(-1)).toMatchObject({
      error: { message: 'The bot is not published to the API channel', code: '5000' },
    });
    expect(() =>
      readCozeResponse(
        { status: 200, headers: {}, body: fixtureBytes('coze', 'error-authentication.json') },
        chat({ messages: [] }),
      ),
    ).toThrow(UpstreamError);
    expect(
      readCozeError({ status: 401, headers: {}, body: fixtureBytes('coze', 'error-authentication.json') }),
    ).toMatchObject({ message: 'authentication is invalid', code: '4100' });
  });
});

describe('coze mock upstream', () => {
  const mock = startedForSuite(() => startCozeMock());

  test('accepts our request', async () => {
    const call = chat({ messages: [{ role: 'user', content: 'hi' }] }, mock.url);
    const answer = await sendWhole(buildCozeRequest(call));
    expect(readCozeResponse(answer, call).usage?.total_tokens).toBe(633);
    expect(mock.requests.at(-1)?.json).toMatchObject({ bot_id: cozeMockBot, user_id: 'u-9' });
  });
});
