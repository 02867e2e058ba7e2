import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { startAiProxyLibraryMock } from '../../../test/mock-upstreams/aiproxy-library.js';
import { startAliMock } from '../../../test/mock-upstreams/ali.js';
import { startBaiduMock } from '../../../test/mock-upstreams/baidu.js';
import type { MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { startTencentMock } from '../../../test/mock-upstreams/tencent.js';
import { startXunfeiMock, type XunfeiMock } from '../../../test/mock-upstreams/xunfei.js';
import { startZhipuMock } from '../../../test/mock-upstreams/zhipu.js';
import { createChannel, setOption } from '../../../test/relay-fixtures.js';
import { readChunks, startProviderKit, type ProviderKit } from '../../../test/provider-kit.js';

/** Every model used here costs 1 quota per token, prompt and completion alike. */
const pricedModels = [
  'ERNIE-3.5-8K',
  'Embedding-V1',
  'cogview-3',
  'qwen-max',
  'text-embedding-v1',
  'wanx-v1',
  'glm-4',
  'chatglm_turbo',
  'embedding-2',
  'Spark-Max',
  'hunyuan-lite',
  'hunyuan-embedding',
  'library-gpt',
];
const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    },
  },
];
const hello: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'terse' },
  { role: 'user', content: '你好' },
];

describe.each(await availableEngines())('China providers (own protocols) end to end on $label', (engine) => {
  let baiduMock: MockUpstream;
  let aliMock: MockUpstream;
  let zhipuMock: MockUpstream;
  let tencentMock: MockUpstream;
  let libraryMock: MockUpstream;
  let xunfeiMock: XunfeiMock;

  let kit: ProviderKit;
  const charged: ProviderKit['charged'] = (call) => kit.charged(call);
  const probe: ProviderKit['probe'] = (name, model) => kit.probe(name, model);

  beforeAll(async () => {
    kit = await startProviderKit(engine, { username: 'china-native', pricedModels });
    [baiduMock, aliMock, zhipuMock, tencentMock, libraryMock, xunfeiMock] = await Promise.all([
      startBaiduMock({ apiKey: 'bd-ak', secretKey: 'bd-sk' }),
      startAliMock({ apiKey: 'sk-ali' }),
      startZhipuMock({ id: 'zp', secret: 'zp-secret' }),
      startTencentMock({ secretId: 'AKIDmock', secretKey: 'tc-secret' }),
      startAiProxyLibraryMock({ apiKey: 'lib-key', libraryId: 'lib-1' }),
      startXunfeiMock({ appId: 'xf-app', apiSecret: 'xf-secret', apiKey: 'xf-key' }),
    ]);
    const add = (name: string, type: number, key: string, base_url: string, models: string, config = '{}') =>
      kit.addChannel(name, { type, key, base_url, models, config });
    await add('baidu', 15, 'bd-ak|bd-sk', baiduMock.url, 'ERNIE-3.5-8K,Embedding-V1');
    await add('ali', 17, 'sk-ali', aliMock.url, 'qwen-max,text-embedding-v1,wanx-v1');
    await add('zhipu', 16, 'zp.zp-secret', zhipuMock.url, 'glm-4,chatglm_turbo,embedding-2,cogview-3');
    await add('tencent', 23, '1300000000|AKIDmock|tc-secret', tencentMock.url, 'hunyuan-lite,hunyuan-embedding');
    await add('library', 21, 'lib-key', libraryMock.url, 'library-gpt', JSON.stringify({ library_id: 'lib-1' }));
    await add('xunfei', 18, 'xf-app|xf-secret|xf-key', xunfeiMock.url, 'Spark-Max');
  });

  afterAll(async () => {
    await kit?.close();
    await Promise.all(
      [baiduMock, aliMock, zhipuMock, tencentMock, libraryMock, xunfeiMock].map((mock) => mock?.close()),
    );
  });

  test('Baidu: token exchange once, chat, stream, tool call, embeddings, billing and the channel test', async () => {
    const whole = await charged(() => kit.client.chat.completions.create({ model: 'ERNIE-3.5-8K', messages: hello }));
    expect(whole.result.choices[0]!.message.content).toBe('你好！我是文心一言。');
    expect(whole.quota).toBe(18);
    const streamed = await charged(async () =>
      readChunks(await kit.client.chat.completions.create({ model: 'ERNIE-3.5-8K', messages: hello, stream: true })),
    );
    expect(streamed.result).toMatchObject({ content: '你好！我是文心一言。', finish: 'stop' });
    expect(streamed.quota).toBe(18);
    const tool = await kit.client.chat.completions.create({ model: 'ERNIE-3.5-8K', messages: hello, tools });
    expect(tool.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { tool_calls: [{ function: { name: 'get_weather' } }] },
    });
    const embeddings = await charged(() => kit.client.embeddings.create({ model: 'Embedding-V1', input: ['a', 'b'] }));
    expect(embeddings.result.data[1]!.embedding[0]).toBeCloseTo(0.0321, 4);
    expect(embeddings.quota).toBe(4);
    expect(baiduMock.requests.filter((request) => request.path === '/oauth/2.0/token')).toHaveLength(1);
    expect(baiduMock.requests.at(-1)!.json).toEqual({ input: ['a', 'b'] });
    expect(await probe('baidu', 'ERNIE-3.5-8K')).toMatchObject({ success: true, message: '你好！我是文心一言。' });
  });

  test('Ali: chat, stream, tools, embeddings, an image task and the channel test', async () => {
    const whole = await charged(() => kit.client.chat.completions.create({ model: 'qwen-max', messages: hello }));
    expect(whole.result.choices[0]!.message.content).toBe('你好！有什么可以帮你的吗？');
    expect(whole.quota).toBe(20);
    const streamed = await charged(async () =>
      readChunks(await kit.client.chat.completions.create({ model: 'qwen-max', messages: hello, stream: true })),
    );
    expect(streamed.result).toMatchObject({ content: '你好！有什么可以帮你的吗？', finish: 'stop' });
    expect(streamed.quota).toBe(20);
    const toolStream = await readChunks(
      await kit.client.chat.completions.create({ model: 'qwen-max', messages: hello, tools, stream: true }),
    );
    expect(toolStream).toMatchObject({ finish: 'tool_calls', calls: [{ name: 'get_weather' }] });
    const vision = await kit.client.chat.completions.create({
      model: 'qwen-max',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '这是什么' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    expect(vision.choices[0]!.message.content).toBe('图中是一只橘猫，趴在窗台上。');
    expect(aliMock.requests.at(-1)!.path).toBe('/api/v1/services/aigc/multimodal-generation/generation');
    const embeddings = await kit.client.embeddings.create({ model: 'text-embedding-v1', input: 'a' });
    expect(embeddings.data[0]!.embedding).toHaveLength(3);
    const image = await charged(() =>
      kit.client.images.generate({ model: 'wanx-v1', prompt: 'a cat', size: '1024x1024' }),
    );
    expect(image.result.data![0]!.url).toBe(`${aliMock.url}/pictures/cat.png`);
    expect(image.quota).toBeGreaterThan(0);
    expect(await probe('ali', 'qwen-max')).toMatchObject({ success: true });
  }, 20_000);

  test('Zhipu: v4 chat, tools and stream, v3 legacy chat, embeddings, and the channel test', async () => {
    const whole = await charged(() =>
      kit.client.chat.completions.create({ model: 'glm-4', messages: hello, temperature: 1 }),
    );
    expect(whole.result.choices[0]!.message.content).toBe('你好！我是智谱清言。');
    expect(whole.quota).toBe(17);
    expect(zhipuMock.requests.at(-1)!.json!.temperature).toBe(0.99);
    const tool = await kit.client.chat.completions.create({ model: 'glm-4', messages: hello, tools });
    expect(tool.choices[0]!.finish_reason).toBe('tool_calls');
    expect(
      await readChunks(await kit.client.chat.completions.create({ model: 'glm-4', messages: hello, stream: true })),
    ).toMatchObject({ content: '你好！我是智谱清言。', finish: 'stop' });
    const legacy = await charged(() => kit.client.chat.completions.create({ model: 'chatglm_turbo', messages: hello }));
    expect(legacy.result.choices[0]!.message.content).toBe(' 你好！我是ChatGLM。\n很高兴见到你。');
    expect(legacy.quota).toBe(18);
    expect(
      await readChunks(
        await kit.client.chat.completions.create({ model: 'chatglm_turbo', messages: hello, stream: true }),
      ),
    ).toMatchObject({ content: '你好！我是\nChatGLM。' });
    const embeddings = await kit.client.embeddings.create({
      model: 'embedding-2',
      input: 'a',
      encoding_format: 'float',
    });
    expect(embeddings.usage.total_tokens).toBe(3);
    const image = await charged(() => kit.client.images.generate({ model: 'cogview-3', prompt: 'a cat' }));
    expect(image.result.data![0]!.url).toContain('cogview');
    expect(image.quota).toBe(1000);
    expect(await probe('zhipu', 'glm-4')).toMatchObject({ success: true, message: '你好！我是智谱清言。' });
  });

  test('iFlytek Spark over WebSocket: whole, stream, function call and the channel test', async () => {
    const whole = await charged(() => kit.client.chat.completions.create({ model: 'Spark-Max', messages: hello }));
    expect(whole.result.choices[0]!.message.content).toBe('你好！我是讯飞星火。');
    expect(whole.quota).toBe(14);
    const streamed = await charged(async () =>
      readChunks(await kit.client.chat.completions.create({ model: 'Spark-Max', messages: hello, stream: true })),
    );
    expect(streamed.result).toMatchObject({ content: '你好！我是讯飞星火。', finish: 'stop' });
    expect(streamed.quota).toBe(14);
    const tool = await kit.client.chat.completions.create({ model: 'Spark-Max', messages: hello, tools });
    expect(tool.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"合肥"}' } }] },
    });
    expect(xunfeiMock.frames.at(-1)!.frame.parameter.chat.domain).toBe('generalv3.5');
    expect(await probe('xunfei', 'Spark-Max')).toMatchObject({ success: true });
  });

  test('Tencent Hunyuan: signed chat, tools, stream, embeddings and the channel test', async () => {
    const whole = await charged(() => kit.client.chat.completions.create({ model: 'hunyuan-lite', messages: hello }));
    expect(whole.result.choices[0]!.message.content).toBe('你好！我是腾讯混元。');
    expect(whole.quota).toBe(10);
    const tool = await kit.client.chat.completions.create({ model: 'hunyuan-lite', messages: hello, tools });
    expect(tool.choices[0]!.message.tool_calls![0]!.id).toBe('call_cq8a3n2l3mbd0r4f5sc0');
    const toolStream = await readChunks(
      await kit.client.chat.completions.create({ model: 'hunyuan-lite', messages: hello, tools, stream: true }),
    );
    expect(toolStream).toMatchObject({ finish: 'tool_calls', calls: [{ name: 'get_weather' }] });
    const streamed = await charged(async () =>
      readChunks(await kit.client.chat.completions.create({ model: 'hunyuan-lite', messages: hello, stream: true })),
    );
    expect(streamed.result).toMatchObject({ content: '你好！我是腾讯混元。', finish: 'stop' });
    expect(streamed.quota).toBe(10);
    const vision = await kit.client.chat.completions.create({
      model: 'hunyuan-lite',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '这是什么' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    expect(vision.choices[0]!.message.content).toBe('你好！我是腾讯混元。');
    expect(tencentMock.requests.at(-1)!.json!.Messages).toEqual([
      {
        Role: 'user',
        Contents: [
          { Type: 'text', Text: '这是什么' },
          { Type: 'image_url', ImageUrl: { Url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
    ]);
    const embeddings = await kit.client.embeddings.create({ model: 'hunyuan-embedding', input: ['a', 'b'] });
    expect(embeddings.data).toHaveLength(2);
    expect(await probe('tencent', 'hunyuan-lite')).toMatchObject({ success: true });
  });

  test('AI Proxy library: answers with references, counted usage, and the channel test', async () => {
    const whole = await charged(() => kit.client.chat.completions.create({ model: 'library-gpt', messages: hello }));
    expect(whole.result.choices[0]!.message.content).toContain('参考文档');
    expect(whole.quota).toBeGreaterThan(0);
    expect(
      await readChunks(
        await kit.client.chat.completions.create({ model: 'library-gpt', messages: hello, stream: true }),
      ),
    ).toMatchObject({ finish: 'stop' });
    expect(await probe('library', 'library-gpt')).toMatchObject({ success: true });
  });

  test('vendor errors reach the client in OpenAI shape with the upstream message', async () => {
    const bad = await createChannel(kit.server, {
      name: 'bad-tencent',
      type: 23,
      key: '1300000000|AKIDmock|wrong',
      base_url: tencentMock.url,
      models: 'hunyuan-bad',
    });
    await setOption(
      kit.server,
      'ModelRatio',
      JSON.stringify(Object.fromEntries([...pricedModels, 'hunyuan-bad'].map((model) => [model, 1]))),
    );
    const error = await kit.client.chat.completions
      .create({ model: 'hunyuan-bad', messages: hello })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('could not be validated');
    const streamError = await kit.client.chat.completions
      .create({ model: 'hunyuan-bad', messages: hello, stream: true })
      .catch((caught: unknown) => caught);
    // Hunyuan answers the failed stream with a 200 JSON error; its code, not 502, decides the status.
    expect(streamError).toMatchObject({ status: 401, code: 'AuthFailure.SignatureFailure' });
    const answer = (await kit.root.get(`/api/channel/test/${bad.id}`)).body;
    expect(answer.success).toBe(false);
    expect(answer.message).toContain('http status code 401');
    expect(answer.message).toContain('could not be validated');
    const misfit = await createChannel(kit.server, {
      name: 'misfit-baidu',
      type: 15,
      key: 'only-one-part',
      base_url: baiduMock.url,
      models: 'ERNIE-misfit',
    });
    const misfitAnswer = (await kit.root.get(`/api/channel/test/${misfit.id}`)).body;
    expect(misfitAnswer).toMatchObject({ success: false });
    expect(misfitAnswer.message).toContain('APIKey|SecretKey');
  });
});
