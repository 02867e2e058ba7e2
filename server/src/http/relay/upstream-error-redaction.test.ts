import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { startMockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { createChannel, createToken, createUser } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

const channelKey = 'sk-channel-0123456789abcdefSECRET';
const multiPartKey = 'AKIDCHANNELPART1|SecretChannelPart2xyz|eu-central-7';

/** The calls whose failures must come back without the channel's secrets, on each front. */
const calls = [
  {
    name: 'POST /v1/chat/completions',
    path: '/v1/chat/completions',
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    name: 'POST /v1/chat/completions (stream)',
    path: '/v1/chat/completions',
    body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    name: 'POST /v1/messages',
    path: '/v1/messages',
    body: { model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    name: 'POST /v1/messages (stream)',
    path: '/v1/messages',
    body: { model: 'gpt-4o-mini', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] },
  },
];

describe('upstream errors reach the client without the channel key or the upstream URL', () => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  let key: string;
  let upstreamHost: string;

  beforeAll(async () => {
    upstream = await MockOpenAIUpstream.start();
    upstreamHost = new URL(upstream.url).host;
    server = await startTestServer();
    const userId = await createUser(server, { username: 'redaction', quota: 100_000_000 });
    ({ key } = await createToken(server, userId));
  });

  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  /** Sends the call and returns status and raw text (a stream's whole text). */
  async function send(call: (typeof calls)[number]) {
    const response = await fetch(`${server.url}${call.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(call.body),
    });
    return { status: response.status, text: await response.text() };
  }

  test('an error event in the middle of a stream (DashScope) reaches the client without them', async () => {
    const aliKey = 'sk-dashscope-0123456789abcdefMIDSTREAM';
    const ali = await startMockUpstream(async (_request, reply) => {
      const result = {
        output: { choices: [{ message: { content: 'Hel', role: 'assistant' }, finish_reason: 'null' }] },
        usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
      };
      const failure = { code: 'InternalError', message: `quota of ${aliKey} exhausted at ${ali.url}/api/v1/services` };
      await reply.stream(
        'text/event-stream',
        `id:1\nevent:result\n:HTTP_STATUS/200\ndata:${JSON.stringify(result)}\n\nid:2\nevent:error\n:HTTP_STATUS/500\ndata:${JSON.stringify(failure)}\n\n`,
      );
    });
    try {
      const db = server.context.database.db;
      await db.deleteFrom('abilities').execute();
      await db.deleteFrom('channels').execute();
      await createChannel(server, { type: 17, base_url: ali.url, key: aliKey, models: 'qwen-turbo' });
      const { status, text } = await send({
        name: 'DashScope stream',
        path: '/v1/chat/completions',
        body: { model: 'qwen-turbo', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(status).toBe(200);
      expect(text).toContain('stream_interrupted');
      expect(text).toContain('[redacted]');
      for (const secret of [aliKey, ali.url, new URL(ali.url).host]) expect(text).not.toContain(secret);
      expect(ali.requests).toHaveLength(1);
    } finally {
      await ali.close();
    }
  });

  for (const [label, secretKey] of [
    ['a plain key', channelKey],
    ['a multi-part key', multiPartKey],
  ] as const) {
    describe(`a channel with ${label}`, () => {
      let parts: string[];

      beforeAll(async () => {
        const db = server.context.database.db;
        await db.deleteFrom('abilities').execute();
        await db.deleteFrom('channels').execute();
        await createChannel(server, { base_url: upstream.url, key: secretKey });
        parts = [secretKey, ...secretKey.split('|'), upstream.url, upstreamHost];
      });

      const echoes = () => ({
        json: JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${secretKey}. You called ${upstream.url}/v1/chat/completions with Authorization: Bearer ${secretKey}`,
            type: 'invalid_request_error',
            param: secretKey,
            code: 'invalid_api_key',
          },
        }),
        text: `upstream proxy error: POST ${upstream.url}/v1/chat/completions (Authorization: Bearer ${secretKey}) refused by ${upstreamHost}`,
      });

      for (const call of calls) {
        test.each(['json', 'text'] as const)(`${call.name}: a %s error echoing them`, async (shape) => {
          upstream.set({ failure: { status: 400, body: echoes()[shape] } });
          const { status, text } = await send(call);
          expect(status).toBe(400);
          // A JSON error keeps its (redacted) message; a text one is answered with one-api's generic message.
          if (shape === 'json') expect(text).toContain('[redacted]');
          for (const secret of parts) expect(text).not.toContain(secret);
          // The mock did get the call (with the key), so the error really came from it.
          expect(upstream.lastRequest?.headers.authorization).toBe(`Bearer ${secretKey}`);
          upstream.reset();
        });
      }
    });
  }
});
