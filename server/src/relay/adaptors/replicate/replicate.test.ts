import { describe, expect, test } from 'vitest';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, fetchTools as tools, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { mockPng, replicateMockToken, startReplicateMock } from '../../../../test/mock-upstreams/replicate.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { openReplicateStream } from './open-stream.js';
import { buildReplicateRequest, replicateImageInput } from './request.js';
import { readReplicateError, readReplicateResponse } from './response.js';
import { readReplicateStream } from './stream.js';

const chat = (body: Record<string, unknown>, baseUrl = 'https://api.replicate.com/v1/models') =>
  relayCall({
    body: {
      model: 'meta/meta-llama-3-8b-instruct',
      messages: [
        { role: 'system', content: 'terse' },
        { role: 'user', content: 'hi' },
      ],
      ...body,
    },
    key: replicateMockToken,
    baseUrl,
  });

describe('replicate requests', () => {
  test('chat input as role lines, Prefer: wait for whole answers', () => {
    const request = buildReplicateRequest(chat({ max_tokens: 64 }));
    expect(request.url).toBe('https://api.replicate.com/v1/models/meta/meta-llama-3-8b-instruct/predictions');
    expect(request.headers).toMatchObject({ authorization: `Bearer ${replicateMockToken}`, prefer: 'wait' });
    expect(JSON.parse(String(request.body))).toEqual({
      input: { prompt: 'system: terse\nuser: hi\n', max_tokens: 64, temperature: 1, top_p: 1 },
    });
    const stream = buildReplicateRequest(chat({ stream: true }));
    expect(stream.headers.prefer).toBeUndefined();
    expect(JSON.parse(String(stream.body)).stream).toBe(true);
  });

  test('image input from size and n', () => {
    expect(replicateImageInput({ prompt: 'a cat', size: '1792x1024', n: 2 })).toEqual({
      prompt: 'a cat',
      aspect_ratio: '7:4',
      num_outputs: 2,
    });
    expect(() => replicateImageInput({})).toThrow(/prompt is required/);
  });
});

describe('replicate streams and errors', () => {
  test('SSE output events become content', async () => {
    const result = await collect(
      readReplicateStream(pieces(fixture('replicate', 'stream.sse')), chat({ stream: true })),
    );
    expect(result.content).toBe('Hello! How can I help?');
    expect(result.finishReason).toBe('stop');
  });

  test('error and problem details keep the message', async () => {
    const failed = await collect(
      readReplicateStream(pieces('event: error\ndata: {"detail":"CUDA out of memory"}\n\n'), chat({ stream: true })),
    );
    expect(failed.chunks.at(-1)).toMatchObject({ error: { message: 'CUDA out of memory' } });
    expect(
      readReplicateError({ status: 401, headers: {}, body: fixtureBytes('replicate', 'error-unauthenticated.json') }),
    ).toMatchObject({ status: 401, message: 'You did not pass a valid authentication token' });
  });
});

describe('replicate against the mock', () => {
  const mock = startedForSuite(() => startReplicateMock());

  test('whole chat answer with token metrics', async () => {
    const call = chat({}, mock.url);
    const result = await readReplicateResponse(await sendWhole(buildReplicateRequest(call)), call, tools);
    expect(JSON.parse(result.body.toString()).choices[0].message.content).toBe('Hello! How can I help?');
    expect(result.usage).toEqual({ prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 });
  });

  test('streamed chat: create, then read the stream URL', async () => {
    const call = chat({ stream: true }, `${mock.url}/v1/models`);
    const opened = await openReplicateStream(call, tools);
    expect(opened.status).toBe(200);
    expect((await collect(readReplicateStream(opened.body, call))).content).toBe('Hello! How can I help?');
  });

  test('image prediction polled until done, downloaded as base64 on request', async () => {
    const call = relayCall({
      mode: 'images',
      body: { model: 'black-forest-labs/flux-schnell', prompt: 'a cat', response_format: 'b64_json' },
      key: replicateMockToken,
      baseUrl: mock.url,
    });
    const result = await readReplicateResponse(await sendWhole(buildReplicateRequest(call)), call, tools);
    expect(JSON.parse(result.body.toString()).data).toEqual([{ b64_json: mockPng.toString('base64') }]);
  });

  test('a bad token fails creation', async () => {
    const call = relayCall({
      body: { model: 'meta/meta-llama-3-8b-instruct', messages: [{ role: 'user', content: 'hi' }], stream: true },
      key: 'bad',
      baseUrl: mock.url,
    });
    const opened = await openReplicateStream(call, tools);
    expect(opened.status).toBe(401);
  });
});
