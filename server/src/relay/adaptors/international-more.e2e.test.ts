import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import {
  cloudflareMockAccount,
  cloudflareMockToken,
  startCloudflareMock,
} from '../../../test/mock-upstreams/cloudflare.js';
import { cohereMockKey, startCohereMock } from '../../../test/mock-upstreams/cohere.js';
import { cozeMockBot, cozeMockToken, startCozeMock } from '../../../test/mock-upstreams/coze.js';
import { deeplMockKey, startDeeplMock } from '../../../test/mock-upstreams/deepl.js';
import { type MockUpstream, startMockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { startOllamaMock } from '../../../test/mock-upstreams/ollama.js';
import { mockPng, replicateMockToken, startReplicateMock } from '../../../test/mock-upstreams/replicate.js';
import { createToken, createUser } from '../../../test/relay-fixtures.js';
import { hello, readChunks, startProviderKit, tools, type ProviderKit } from '../../../test/provider-kit.js';

const coze = `bot-${cozeMockBot}`;
const pricedModels = [
  'llama3:latest',
  'llama3.1:latest',
  'nomic-embed-text',
  'command-r',
  '@cf/meta/llama-3.1-8b-instruct',
  coze,
  'deepl-zh',
  'meta/meta-llama-3-8b-instruct',
  'black-forest-labs/flux-schnell',
];

describe.each(await availableEngines())(
  'Ollama, Cohere, Cloudflare, Coze, DeepL, Replicate and Proxy channels end to end on $label',
  (engine) => {
    let adminKey: string;
    const mocks: Record<string, MockUpstream> = {};

    let kit: ProviderKit;
    const charged: ProviderKit['charged'] = (call) => kit.charged(call);
    const probe: ProviderKit['probe'] = (name, model) => kit.probe(name, model);
    /** The hello chat streamed from `model`, read to its end. */
    const streamedHello = async (model: string) =>
      readChunks(await kit.client.chat.completions.create({ model, messages: hello, stream: true }));

    beforeAll(async () => {
      kit = await startProviderKit(engine, { username: 'international-b', pricedModels, priceCompletions: true });
      const [ollama, cohere, cloudflare, cozeMock, deepl, replicate, echo] = await Promise.all([
        startOllamaMock(),
        startCohereMock(),
        startCloudflareMock(),
        startCozeMock(),
        startDeeplMock(),
        startReplicateMock(),
        startMockUpstream((request, reply) =>
          reply.json(201, {
            method: request.method,
            path: request.path,
            query: request.query.toString(),
            authorization: request.headers.authorization,
            custom: request.headers['x-custom'],
            body: request.body.toString(),
          }),
        ),
      ]);
      Object.assign(mocks, { ollama, cohere, cloudflare, coze: cozeMock, deepl, replicate, echo });
      const add = (name: string, type: number, key: string, base_url: string, models: string, config = '{}') =>
        kit.addChannel(name, { type, key, base_url, models, config });
      await add('ollama', 30, '', ollama.url, 'llama3:latest,llama3.1:latest,nomic-embed-text');
      await add('cohere', 35, cohereMockKey, cohere.url, 'command-r');
      await add(
        'cloudflare',
        37,
        cloudflareMockToken,
        cloudflare.url,
        '@cf/meta/llama-3.1-8b-instruct',
        JSON.stringify({ user_id: cloudflareMockAccount }),
      );
      await add('coze', 34, cozeMockToken, cozeMock.url, coze, JSON.stringify({ user_id: 'u-42' }));
      await add('deepl', 38, deeplMockKey, deepl.url, 'deepl-zh');
      await add(
        'replicate',
        46,
        replicateMockToken,
        replicate.url,
        'meta/meta-llama-3-8b-instruct,black-forest-labs/flux-schnell',
      );
      await add('proxy', 43, 'Bearer upstream-secret', echo.url, 'proxy');
      const adminId = await createUser(kit.server, { username: 'proxy-admin', quota: 1_000, role: 10 });
      adminKey = (await createToken(kit.server, adminId)).key;
    });

    afterAll(async () => {
      await kit?.close();
      await Promise.all(Object.values(mocks).map((mock) => mock.close()));
    });

    test('Ollama: chat, NDJSON stream, tools, embeddings, billing and the channel test', async () => {
      const whole = await charged(() =>
        kit.client.chat.completions.create({ model: 'llama3:latest', messages: hello }),
      );
      expect(whole.result.choices[0]!.message.content).toBe('Hello! How can I help you today?');
      expect(whole.quota).toBe(36);
      expect(mocks.ollama!.requests.at(-1)!.json).toMatchObject({
        model: 'llama3:latest',
        stream: false,
        messages: [{ role: 'system' }, { role: 'user', content: 'hi' }],
      });
      const streamed = await charged(() => streamedHello('llama3:latest'));
      expect(streamed.result).toMatchObject({ content: 'Hello! How can I help?', finish: 'stop' });
      expect(streamed.quota).toBe(33);
      const tool = await kit.client.chat.completions.create({ model: 'llama3.1:latest', messages: hello, tools });
      expect(tool.choices[0]).toMatchObject({
        finish_reason: 'tool_calls',
        message: { tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      });
      const embeddings = await charged(() =>
        kit.client.embeddings.create({ model: 'nomic-embed-text', input: ['a', 'b'] }),
      );
      expect(embeddings.result.data).toHaveLength(2);
      expect(embeddings.quota).toBe(8);
      expect(await probe('ollama', 'llama3:latest')).toMatchObject({ success: true });
    });

    test('Cohere: chat, NDJSON stream, tools, billing and the channel test', async () => {
      const whole = await charged(() => kit.client.chat.completions.create({ model: 'command-r', messages: hello }));
      expect(whole.result.choices[0]!.message.content).toBe('Hello! How can I help you today?');
      expect(whole.quota).toBe(77);
      expect(mocks.cohere!.requests.at(-1)!.json).toMatchObject({
        model: 'command-r',
        message: 'hi',
        preamble: 'You are terse.',
      });
      const streamed = await charged(() => streamedHello('command-r'));
      expect(streamed.result).toMatchObject({ content: 'Hello! How can I help?', finish: 'stop' });
      expect(streamed.quota).toBe(75);
      const toolStream = await readChunks(
        await kit.client.chat.completions.create({ model: 'command-r', messages: hello, tools, stream: true }),
      );
      expect(toolStream).toMatchObject({
        finish: 'tool_calls',
        calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }],
      });
      expect(await probe('cohere', 'command-r')).toMatchObject({ success: true });
    });

    test('Cloudflare: compatible chat and stream, native completions, billing and the channel test', async () => {
      const whole = await charged(() =>
        kit.client.chat.completions.create({ model: '@cf/meta/llama-3.1-8b-instruct', messages: hello }),
      );
      expect(whole.result.choices[0]!.message.content).toBe('Hello from Workers AI!');
      expect(whole.quota).toBe(18);
      const streamed = await streamedHello('@cf/meta/llama-3.1-8b-instruct');
      expect(streamed.content).toBe('Hello from Workers AI!');
      const completion = await charged(() =>
        kit.client.completions.create({ model: '@cf/meta/llama-3.1-8b-instruct', prompt: 'Once' }),
      );
      expect(completion.result.choices[0]!.text).toBe('Once upon a time');
      expect(completion.quota).toBe(9);
      expect(mocks.cloudflare!.requests.at(-1)!.path).toBe(
        `/client/v4/accounts/${cloudflareMockAccount}/ai/run/@cf/meta/llama-3.1-8b-instruct`,
      );
      expect(await probe('cloudflare', '@cf/meta/llama-3.1-8b-instruct')).toMatchObject({ success: true });
    });

    test('Coze: whole answers gathered from the stream, streams, usage and the channel test', async () => {
      const whole = await charged(() => kit.client.chat.completions.create({ model: coze, messages: hello }));
      expect(whole.result.choices[0]!.message.content).toBe('Hello from Coze!');
      expect(whole.quota).toBe(633);
      expect(mocks.coze!.requests.at(-1)!.json).toMatchObject({ bot_id: cozeMockBot, user_id: 'u-42', stream: true });
      const streamed = await charged(() => streamedHello(coze));
      expect(streamed.result).toMatchObject({ content: 'Hello from Coze!', finish: 'stop' });
      expect(streamed.quota).toBe(633);
      expect(await probe('coze', coze)).toMatchObject({ success: true, message: 'Hello from Coze!' });
    });

    test('DeepL: translation as a chat answer and a one-chunk stream, characters billed, and the channel test', async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello, world!' }];
      const whole = await charged(() => kit.client.chat.completions.create({ model: 'deepl-zh', messages }));
      expect(whole.result.choices[0]!.message.content).toBe('你好，世界！');
      expect(whole.quota).toBe(13);
      const streamed = await readChunks(
        await kit.client.chat.completions.create({ model: 'deepl-zh', messages, stream: true }),
      );
      expect(streamed).toMatchObject({ content: '你好，世界！', finish: 'stop' });
      expect(await probe('deepl', 'deepl-zh')).toMatchObject({ success: true, message: '你好，世界！' });
    });

    test('Replicate: chat by prediction, a streamed prediction, an image and the channel test', async () => {
      const whole = await charged(() =>
        kit.client.chat.completions.create({ model: 'meta/meta-llama-3-8b-instruct', messages: hello }),
      );
      expect(whole.result.choices[0]!.message.content).toBe('Hello! How can I help?');
      expect(whole.quota).toBe(18);
      const streamed = await streamedHello('meta/meta-llama-3-8b-instruct');
      expect(streamed).toMatchObject({ content: 'Hello! How can I help?', finish: 'stop' });
      const image = await kit.client.images.generate({
        model: 'black-forest-labs/flux-schnell',
        prompt: 'a cat',
        response_format: 'b64_json',
      });
      expect(image.data?.[0]?.b64_json).toBe(mockPng.toString('base64'));
      expect(await probe('replicate', 'meta/meta-llama-3-8b-instruct')).toMatchObject({ success: true });
    });

    test('Proxy: administrators pass through with the channel key, others are refused', async () => {
      const response = await fetch(`${kit.server.url}/v1/oneapi/proxy/${kit.channels.proxy}/some/path?x=1`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${adminKey}`, 'x-custom': 'kept', 'content-type': 'text/plain' },
        body: 'raw body',
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({
        method: 'POST',
        path: '/some/path',
        query: 'x=1',
        authorization: 'Bearer upstream-secret',
        custom: 'kept',
        body: 'raw body',
      });
      const refused = await fetch(`${kit.server.url}/v1/oneapi/proxy/${kit.channels.proxy}/some/path`, {
        headers: { authorization: `Bearer ${kit.client.apiKey}` },
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
        '普通用户不支持指定渠道',
      );
      const notProxy = await fetch(`${kit.server.url}/v1/oneapi/proxy/${kit.channels.deepl}/x`, {
        headers: { authorization: `Bearer sk-${adminKey}` },
      });
      expect(notProxy.status).toBe(400);
    });
  },
);
