import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { anthropicMockKey, startAnthropicMock } from '../../../test/mock-upstreams/anthropic.js';
import { awsMockKey, startAwsMock } from '../../../test/mock-upstreams/aws.js';
import { geminiMockKey, startGeminiMock } from '../../../test/mock-upstreams/gemini.js';
import { fixture, fixtureJson, type MockUpstream, startMockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { palmMockKey, startPalmMock } from '../../../test/mock-upstreams/palm.js';
import { startVertexMock, type VertexMock } from '../../../test/mock-upstreams/vertexai.js';
import { hello, readChunks, startProviderKit, tools, type ProviderKit } from '../../../test/provider-kit.js';

/** Every model here costs 1 quota per token, prompt and completion alike, so a charge equals the token count. */
const pricedModels = [
  'claude-3-5-sonnet-20241022',
  'gemini-1.5-flash',
  'text-embedding-004',
  'gemini-1.5-pro-002',
  'claude-3-5-sonnet-v2@20241022',
  'claude-3-haiku-20240307',
  'llama3-8b-8192',
  'PaLM-2',
  'gemini-2.0-flash',
];

describe.each(await availableEngines())('Anthropic, Google and AWS channels end to end on $label', (engine) => {
  let anthropicMock: MockUpstream;
  let geminiMock: MockUpstream;
  let vertexMock: VertexMock;
  let awsMock: MockUpstream;
  let palmMock: MockUpstream;
  let geminiOpenAIMock: MockUpstream;

  let kit: ProviderKit;
  const charged: ProviderKit['charged'] = (call) => kit.charged(call);
  const probe: ProviderKit['probe'] = (name, model) => kit.probe(name, model);

  beforeAll(async () => {
    // Bedrock's Llama has a per-type default (`llama3-8b-8192(33)`) that wins over a plain name.
    kit = await startProviderKit(engine, {
      username: 'international-a',
      pricedModels: [...pricedModels, 'llama3-8b-8192(33)'],
      priceCompletions: true,
    });
    [anthropicMock, geminiMock, vertexMock, awsMock, palmMock] = await Promise.all([
      startAnthropicMock(),
      startGeminiMock(),
      startVertexMock(),
      startAwsMock(),
      startPalmMock(),
    ]);
    const add = (name: string, type: number, key: string, base_url: string, models: string, config = '{}') =>
      kit.addChannel(name, { type, key, base_url, models, config });
    await add('anthropic', 14, anthropicMockKey, anthropicMock.url, 'claude-3-5-sonnet-20241022');
    await add('gemini', 24, geminiMockKey, geminiMock.url, 'gemini-1.5-flash,text-embedding-004');
    await add(
      'vertex',
      42,
      `us-central1|mock-project|${JSON.stringify(vertexMock.serviceAccount)}`,
      vertexMock.url,
      'gemini-1.5-pro-002,claude-3-5-sonnet-v2@20241022',
    );
    await add('aws', 33, awsMockKey, awsMock.url, 'claude-3-haiku-20240307,llama3-8b-8192');
    await add('palm', 11, palmMockKey, palmMock.url, 'PaLM-2');
    // Gemini's OpenAI-compatible endpoint (type 51): OpenAI's protocol under /v1beta/openai, Bearer Gemini key.
    geminiOpenAIMock = await startMockUpstream(async (request, reply) => {
      if (request.headers.authorization !== `Bearer ${geminiMockKey}`)
        return reply.json(400, [
          {
            error: {
              code: 400,
              message: 'API key not valid. Please pass a valid API key.',
              status: 'INVALID_ARGUMENT',
            },
          },
        ]);
      if (request.path !== '/v1beta/openai/chat/completions')
        return reply.json(404, [{ error: { code: 404, message: 'not found', status: 'NOT_FOUND' } }]);
      if ((request.json as { stream?: boolean }).stream)
        return reply.stream('text/event-stream', fixture('openai', 'chat-stream.sse'));
      return reply.json(200, fixtureJson('openai', 'chat-completion.json'));
    });
    await add('gemini-openai', 51, geminiMockKey, `${geminiOpenAIMock.url}/v1beta/openai`, 'gemini-2.0-flash');
  });

  afterAll(async () => {
    await kit?.close();
    await Promise.all(
      [anthropicMock, geminiMock, vertexMock, awsMock, palmMock, geminiOpenAIMock].map((mock) => mock?.close()),
    );
  });

  test('Anthropic: chat, stream with usage, tool calls, billing, upstream errors and the channel test', async () => {
    const whole = await charged(() =>
      kit.client.chat.completions.create({ model: 'claude-3-5-sonnet-20241022', messages: hello }),
    );
    expect(whole.result.choices[0]!.message.content).toBe('Hello! How can I help you today?');
    expect(whole.result.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 10 });
    expect(whole.quota).toBe(22);
    expect(anthropicMock.requests.at(-1)!.json).toMatchObject({
      system: 'You are terse.',
      max_tokens: 4096,
      messages: [{ role: 'user' }],
    });
    const streamed = await charged(async () =>
      readChunks(
        await kit.client.chat.completions.create({
          model: 'claude-3-5-sonnet-20241022',
          messages: hello,
          stream: true,
          stream_options: { include_usage: true },
        }),
      ),
    );
    expect(streamed.result).toMatchObject({
      content: 'Hello! How can I help?',
      finish: 'stop',
      usage: { prompt_tokens: 12, completion_tokens: 8 },
    });
    expect(streamed.quota).toBe(20);
    const tool = await kit.client.chat.completions.create({
      model: 'claude-3-5-sonnet-20241022',
      messages: hello,
      tools,
    });
    expect(tool.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } }] },
    });
    const toolStream = await readChunks(
      await kit.client.chat.completions.create({
        model: 'claude-3-5-sonnet-20241022',
        messages: hello,
        tools,
        stream: true,
      }),
    );
    expect(toolStream).toMatchObject({
      finish: 'tool_calls',
      calls: [{ name: 'get_weather', arguments: '{"city": "Paris"}' }],
    });
    anthropicMock.failNext(429, {
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
    });
    const failed = await kit.client.chat.completions
      .create({ model: 'claude-3-5-sonnet-20241022', messages: hello })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect(await probe('anthropic', 'claude-3-5-sonnet-20241022')).toMatchObject({
      success: true,
      message: 'Hello! How can I help you today?',
    });
  });

  test('Gemini: chat, stream, function calling, embeddings, a wrong key, and the channel test', async () => {
    const whole = await charged(() =>
      kit.client.chat.completions.create({ model: 'gemini-1.5-flash', messages: hello }),
    );
    expect(whole.result.choices[0]!.message.content).toBe('Hello! How can I help you today?');
    expect(whole.quota).toBe(19);
    expect(geminiMock.requests.at(-1)).toMatchObject({
      path: '/v1beta/models/gemini-1.5-flash:generateContent',
      json: { systemInstruction: { parts: [{ text: 'You are terse.' }] } },
    });
    const streamed = await charged(async () =>
      readChunks(
        await kit.client.chat.completions.create({ model: 'gemini-1.5-flash', messages: hello, stream: true }),
      ),
    );
    expect(streamed.result).toMatchObject({ content: 'Hello! How can I help?', finish: 'stop' });
    expect(streamed.quota).toBe(16);
    const tool = await kit.client.chat.completions.create({ model: 'gemini-1.5-flash', messages: hello, tools });
    expect(tool.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    });
    const embeddings = await kit.client.embeddings.create({ model: 'text-embedding-004', input: ['a', 'b'] });
    expect(embeddings.data.map((item) => item.index)).toEqual([0, 1]);
    // The SDK asks for base64 float32 by default, so values come back at float32 precision.
    expect(embeddings.data[1]!.embedding.map((value) => Number(value.toFixed(6)))).toEqual([0.002, 0.017, -0.011]);
    const floats = await kit.client.embeddings.create({
      model: 'text-embedding-004',
      input: 'a',
      encoding_format: 'float',
    });
    expect(floats.data[0]!.embedding).toEqual([0.013, -0.008, 0.021]);
    geminiMock.failNext(400, {
      error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
    });
    const failed = (await kit.client.chat.completions
      .create({ model: 'gemini-1.5-flash', messages: hello })
      .catch((error: unknown) => error)) as InstanceType<typeof OpenAI.APIError>;
    expect(failed.status).toBe(400);
    expect(failed.message).toContain('API key not valid');
    expect(await probe('gemini', 'gemini-1.5-flash')).toMatchObject({ success: true });
  });

  test('Vertex AI: token minted once, Gemini and Claude publishers, streams and the channel test', async () => {
    const gemini = await charged(() =>
      kit.client.chat.completions.create({ model: 'gemini-1.5-pro-002', messages: hello }),
    );
    expect(gemini.result.choices[0]!.message.content).toBe('Hello! How can I help you today?');
    expect(gemini.quota).toBe(19);
    const claude = await charged(async () =>
      readChunks(
        await kit.client.chat.completions.create({
          model: 'claude-3-5-sonnet-v2@20241022',
          messages: hello,
          stream: true,
        }),
      ),
    );
    expect(claude.result).toMatchObject({ content: 'Hello! How can I help?', finish: 'stop' });
    expect(claude.quota).toBe(20);
    const tool = await kit.client.chat.completions.create({
      model: 'claude-3-5-sonnet-v2@20241022',
      messages: hello,
      tools,
    });
    expect(tool.choices[0]!.finish_reason).toBe('tool_calls');
    expect(vertexMock.requests.filter((request) => request.path === '/token')).toHaveLength(1);
    expect(await probe('vertex', 'claude-3-5-sonnet-v2@20241022')).toMatchObject({
      success: true,
      message: 'Hello! How can I help you today?',
    });
  });

  test('AWS Bedrock: Claude and Llama through the SDK (SigV4, event stream), billing and the channel test', async () => {
    const whole = await charged(() =>
      kit.client.chat.completions.create({ model: 'claude-3-haiku-20240307', messages: hello }),
    );
    expect(whole.result.choices[0]!.message.content).toBe('Hello from Bedrock!');
    expect(whole.quota).toBe(20);
    const streamed = await charged(async () =>
      readChunks(
        await kit.client.chat.completions.create({ model: 'claude-3-haiku-20240307', messages: hello, stream: true }),
      ),
    );
    expect(streamed.result).toMatchObject({ content: 'Hello from Bedrock!', finish: 'stop' });
    expect(streamed.quota).toBe(20);
    const toolStream = await readChunks(
      await kit.client.chat.completions.create({
        model: 'claude-3-haiku-20240307',
        messages: hello,
        tools,
        stream: true,
      }),
    );
    expect(toolStream).toMatchObject({
      finish: 'tool_calls',
      calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }],
    });
    const llama = await charged(async () =>
      readChunks(
        await kit.client.chat.completions.create({
          model: 'llama3-8b-8192',
          messages: hello,
          stream: true,
          stream_options: { include_usage: true },
        }),
      ),
    );
    expect(llama.result.content).toBe('Hello from Llama!');
    expect(llama.quota).toBe(20);
    expect(awsMock.requests.at(-1)!.path).toBe('/model/meta.llama3-8b-instruct-v1%3A0/invoke-with-response-stream');
    expect(await probe('aws', 'claude-3-haiku-20240307')).toMatchObject({
      success: true,
      message: 'Hello from Bedrock!',
    });
  });

  test('PaLM: chat, a one-chunk stream and the channel test', async () => {
    const whole = await kit.client.chat.completions.create({ model: 'PaLM-2', messages: hello });
    expect(whole.choices[0]!.message.content).toBe('Hello! How can I help you today?');
    const streamed = await readChunks(
      await kit.client.chat.completions.create({ model: 'PaLM-2', messages: hello, stream: true }),
    );
    expect(streamed).toMatchObject({ content: 'Hello! How can I help you today?', finish: 'stop' });
    expect(await probe('palm', 'PaLM-2')).toMatchObject({ success: true });
  });

  test('Gemini OpenAI-compatible: chat and stream under /v1beta/openai, billing and the channel test', async () => {
    const whole = await charged(() =>
      kit.client.chat.completions.create({ model: 'gemini-2.0-flash', messages: hello }),
    );
    expect(whole.result.choices[0]!.message.content).toBe('Hello!');
    expect(whole.quota).toBe(15);
    const streamed = await readChunks(
      await kit.client.chat.completions.create({ model: 'gemini-2.0-flash', messages: hello, stream: true }),
    );
    expect(streamed).toMatchObject({ content: 'Hello!', finish: 'stop' });
    expect(geminiOpenAIMock.requests.at(-1)!.path).toBe('/v1beta/openai/chat/completions');
    expect(await probe('gemini-openai', 'gemini-2.0-flash')).toMatchObject({ success: true, message: 'Hello!' });
  });
});
