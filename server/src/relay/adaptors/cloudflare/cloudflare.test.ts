import { describe, expect, test } from 'vitest';
import {
  cloudflareMockAccount,
  cloudflareMockToken,
  startCloudflareMock,
} from '../../../../test/mock-upstreams/cloudflare.js';
import { fixture, fixtureBytes } from '../../../../test/mock-upstreams/mock-kit.js';
import { collect, pieces, sendWhole } from '../../../../test/mock-upstreams/relay-call-kit.js';
import { relayCall } from '../../../../test/relay-call.js';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { buildCloudflareRequest, readCloudflareCredentials } from './request.js';
import { readCloudflareError, readCloudflareResponse } from './response.js';
import { readCloudflareStream } from './stream.js';

const model = '@cf/meta/llama-3.1-8b-instruct';
const config = { user_id: cloudflareMockAccount };

describe('cloudflare requests', () => {
  test('account from config user_id or key accountId|token; bad ones refused', () => {
    const channel = relayCall({ body: {}, key: cloudflareMockToken, config }).channel;
    expect(readCloudflareCredentials(channel)).toEqual({
      accountId: cloudflareMockAccount,
      token: cloudflareMockToken,
    });
    expect(readCloudflareCredentials({ ...channel, config: {}, key: `${cloudflareMockAccount}|t` })).toEqual({
      accountId: cloudflareMockAccount,
      token: 't',
    });
    expect(() => readCloudflareCredentials({ ...channel, config: {} })).toThrow(/account id/);
  });

  test('chat to the compatible endpoint, completions to run, AI Gateway prefix kept', () => {
    const chat = buildCloudflareRequest(
      relayCall({
        body: { model, messages: [] },
        key: cloudflareMockToken,
        config,
        baseUrl: 'https://api.cloudflare.com',
      }),
    );
    expect(chat.url).toBe(
      `https://api.cloudflare.com/client/v4/accounts/${cloudflareMockAccount}/ai/v1/chat/completions`,
    );
    const run = buildCloudflareRequest(
      relayCall({
        mode: 'completions',
        body: { model, prompt: 'Once', max_tokens: 20 },
        key: cloudflareMockToken,
        config,
      }),
    );
    expect(run.url).toBe(`http://127.0.0.1:9/client/v4/accounts/${cloudflareMockAccount}/ai/run/${model}`);
    expect(JSON.parse(String(run.body))).toEqual({ prompt: 'Once', max_tokens: 20 });
    const gateway = buildCloudflareRequest(
      relayCall({
        body: { model, messages: [] },
        key: cloudflareMockToken,
        config,
        baseUrl: 'https://gateway.ai.cloudflare.com/v1/acct/gw/workers-ai',
      }),
    );
    expect(gateway.url).toBe('https://gateway.ai.cloudflare.com/v1/acct/gw/workers-ai/v1/chat/completions');
  });
});

describe('cloudflare answers and streams', () => {
  test('chat passes through; run becomes a text completion', () => {
    const chat = readCloudflareResponse(
      { status: 200, headers: { 'content-type': 'application/json' }, body: fixtureBytes('cloudflare', 'chat.json') },
      relayCall({ body: { model } }),
    );
    expect(chat.usage).toEqual({ prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 });
    const run = readCloudflareResponse(
      { status: 200, headers: {}, body: fixtureBytes('cloudflare', 'run.json') },
      relayCall({ mode: 'completions', body: { model } }),
    );
    expect(JSON.parse(run.body.toString())).toMatchObject({
      object: 'text_completion',
      choices: [{ text: 'Once upon a time', finish_reason: 'stop' }],
    });
    expect(run.usage?.total_tokens).toBe(9);
  });

  test('run stream becomes completion chunks', async () => {
    const chunks: Record<string, any>[] = [];
    let usage;
    for await (const chunk of readCloudflareStream(
      pieces(fixture('cloudflare', 'run-stream.sse')),
      relayCall({ mode: 'completions', body: { model, stream: true } }),
    )) {
      chunks.push(JSON.parse(chunk.data));
      usage = chunk.usage ?? usage;
    }
    expect(chunks.map((chunk) => chunk.choices[0].text).join('')).toBe('Once upon a time');
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 });
  });

  test('chat stream passes through', async () => {
    const result = await collect(
      readCloudflareStream(
        pieces(fixture('cloudflare', 'chat-stream.sse')),
        relayCall({ body: { model, stream: true } }),
      ),
    );
    expect(result.content).toBe('Hello from Workers AI!');
  });

  test('envelope errors keep the message', () => {
    expect(
      readCloudflareError({ status: 401, headers: {}, body: fixtureBytes('cloudflare', 'error-authentication.json') }),
    ).toMatchObject({ status: 401, message: 'Authentication error' });
  });
});

describe('cloudflare mock upstream', () => {
  const mock = startedForSuite(() => startCloudflareMock());

  test('accepts our requests', async () => {
    const call = relayCall({
      body: { model, messages: [{ role: 'user', content: 'hi' }] },
      key: cloudflareMockToken,
      config,
      baseUrl: mock.url,
    });
    const answer = await sendWhole(buildCloudflareRequest(call));
    expect(answer.status).toBe(200);
    expect(JSON.parse(readCloudflareResponse(answer, call).body.toString()).choices[0].message.content).toBe(
      'Hello from Workers AI!',
    );
    const denied = await sendWhole(buildCloudflareRequest({ ...call, channel: { ...call.channel, key: 'wrong' } }));
    expect(readCloudflareError(denied)).toMatchObject({ status: 401, message: 'Authentication error' });
  });
});
