import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { startAliBailianMock } from '../../../test/mock-upstreams/ali-bailian.js';
import { startBaichuanMock } from '../../../test/mock-upstreams/baichuan.js';
import { startBaiduV2Mock } from '../../../test/mock-upstreams/baidu-v2.js';
import type { MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { startDoubaoMock } from '../../../test/mock-upstreams/doubao.js';
import { startFastGptMock } from '../../../test/mock-upstreams/fastgpt.js';
import { startMinimaxMock } from '../../../test/mock-upstreams/minimax.js';
import { startXunfeiV2Mock } from '../../../test/mock-upstreams/xunfei-v2.js';
import { readChunks, startProviderKit, type ProviderKit } from '../../../test/provider-kit.js';
import { createChannel } from '../../../test/relay-fixtures.js';

const pricedModels = [
  'abab6.5s-chat',
  'generalv3.5',
  'Baichuan4',
  'Baichuan-Text-Embedding',
  'ep-20240601123456-abcde',
  'ep-embed',
  'ERNIE-4.0-8K',
  'qwen-plus',
  'text-embedding-v3',
  'fastgpt-app',
];
const tools: OpenAI.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
];
const hello: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: [{ type: 'text', text: '你好' }] }];

describe.each(await availableEngines())('China providers (OpenAI-like) end to end on $label', (engine) => {
  const mocks: Record<string, MockUpstream> = {};

  let kit: ProviderKit;
  const charged: ProviderKit['charged'] = (call) => kit.charged(call);
  const probe: ProviderKit['probe'] = (name, model) => kit.probe(name, model);

  beforeAll(async () => {
    kit = await startProviderKit(engine, { username: 'china-compat', pricedModels });
    const [minimax, xunfeiV2, baichuan, doubao, baiduV2, bailian, fastgpt] = await Promise.all([
      startMinimaxMock({ apiKey: 'mm' }),
      startXunfeiV2Mock({ apiPassword: 'xf-pw' }),
      startBaichuanMock({ apiKey: 'bc' }),
      startDoubaoMock({ apiKey: 'ark' }),
      startBaiduV2Mock({ apiKey: 'bce-v3/ALTAK-x/y' }),
      startAliBailianMock({ apiKey: 'sk-bl' }),
      startFastGptMock({ apiKey: 'fastgpt-app-key' }),
    ]);
    Object.assign(mocks, { minimax, xunfeiV2, baichuan, doubao, baiduV2, bailian, fastgpt });
    const add = kit.addChannel;
    await add('minimax', { type: 27, key: 'mm', base_url: minimax.url, models: 'abab6.5s-chat' });
    await add('xunfeiV2', { type: 48, key: 'xf-pw', base_url: xunfeiV2.url, models: 'generalv3.5' });
    await add('baichuan', { type: 26, key: 'bc', base_url: baichuan.url, models: 'Baichuan4,Baichuan-Text-Embedding' });
    await add('doubao', {
      type: 40,
      key: 'ark',
      base_url: doubao.url,
      models: 'Doubao-pro-32k,Doubao-embedding',
      model_mapping: JSON.stringify({ 'Doubao-pro-32k': 'ep-20240601123456-abcde', 'Doubao-embedding': 'ep-embed' }),
    });
    await add('baiduV2', { type: 47, key: 'bce-v3/ALTAK-x/y', base_url: baiduV2.url, models: 'ERNIE-4.0-8K' });
    await add('bailian', { type: 49, key: 'sk-bl', base_url: bailian.url, models: 'qwen-plus,text-embedding-v3' });
    await add('fastgpt', {
      type: 22,
      key: 'fastgpt-app-key',
      base_url: `${fastgpt.url}/api/openapi`,
      models: 'fastgpt-app',
    });
  });

  afterAll(async () => {
    await kit?.close();
    await Promise.all(Object.values(mocks).map((mock) => mock.close()));
  });

  test('MiniMax: chatcompletion_v2, whole and streamed with usage, and the channel test', async () => {
    const whole = await charged(() => kit.client.chat.completions.create({ model: 'abab6.5s-chat', messages: hello }));
    expect(whole.result.choices[0]!.message.content).toBe('你好！我是 MiniMax 助手。');
    expect(whole.quota).toBe(30);
    const streamed = await charged(async () =>
      readChunks(await kit.client.chat.completions.create({ model: 'abab6.5s-chat', messages: hello, stream: true })),
    );
    expect(streamed.result).toMatchObject({ content: '你好！我是 MiniMax 助手。', finish: 'stop' });
    expect(streamed.quota).toBe(30);
    expect(await probe('minimax')).toMatchObject({ success: true });
  });

  test('Spark HTTP: whole and streamed, and the channel test', async () => {
    expect(
      (await charged(() => kit.client.chat.completions.create({ model: 'generalv3.5', messages: hello }))).quota,
    ).toBe(13);
    expect(
      (
        await readChunks(
          await kit.client.chat.completions.create({ model: 'generalv3.5', messages: hello, stream: true }),
        )
      ).content,
    ).toBe('你好！我是讯飞星火认知大模型。');
    expect(await probe('xunfeiV2')).toMatchObject({ success: true });
  });

  test('Baichuan: a rebuilt body the strict upstream accepts, stream usage, embeddings, channel test', async () => {
    const streamed = await charged(async () =>
      readChunks(
        await kit.client.chat.completions.create({
          model: 'Baichuan4',
          messages: hello,
          stream: true,
          logprobs: false,
        }),
      ),
    );
    expect(streamed.result.content).toBe('你好！我是百川大模型。');
    expect(streamed.quota).toBe(15);
    expect(mocks.baichuan!.requests.at(-1)!.json).toMatchObject({
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: '你好' }],
    });
    const embeddings = await kit.client.embeddings.create({
      model: 'Baichuan-Text-Embedding',
      input: 'a',
      encoding_format: 'float',
    });
    expect(embeddings.data[0]!.embedding).toHaveLength(3);
    expect(await probe('baichuan')).toMatchObject({ success: true });
  });

  test('Doubao: mapped endpoint ids, tools, stream usage, embeddings, channel test', async () => {
    const tool = await kit.client.chat.completions.create({ model: 'Doubao-pro-32k', messages: hello, tools });
    expect(tool.choices[0]!.message.tool_calls![0]).toMatchObject({ function: { name: 'get_weather' } });
    expect(mocks.doubao!.requests.at(-1)!.json!.model).toBe('ep-20240601123456-abcde');
    const streamed = await charged(async () =>
      readChunks(await kit.client.chat.completions.create({ model: 'Doubao-pro-32k', messages: hello, stream: true })),
    );
    expect(streamed.quota).toBe(14);
    expect(
      (await kit.client.embeddings.create({ model: 'Doubao-embedding', input: 'a', encoding_format: 'float' })).usage
        .total_tokens,
    ).toBe(3);
    expect(await probe('doubao')).toMatchObject({ success: true });
  });

  test('Qianfan v2, Bailian and FastGPT answer, stream and pass the channel test', async () => {
    expect(
      (await charged(() => kit.client.chat.completions.create({ model: 'ERNIE-4.0-8K', messages: hello }))).quota,
    ).toBe(10);
    expect(mocks.baiduV2!.requests.at(-1)!.json!.model).toBe('ernie-4.0-8k');
    const bailian = await charged(async () =>
      readChunks(await kit.client.chat.completions.create({ model: 'qwen-plus', messages: hello, stream: true })),
    );
    expect(bailian.result.content).toBe('你好！我是通义千问。');
    expect(bailian.quota).toBe(16);
    expect(
      (await kit.client.embeddings.create({ model: 'text-embedding-v3', input: 'a', encoding_format: 'float' })).data,
    ).toHaveLength(1);
    const fastgpt = await charged(async () =>
      readChunks(await kit.client.chat.completions.create({ model: 'fastgpt-app', messages: hello, stream: true })),
    );
    expect(fastgpt.result.content).toBe('根据知识库，ModelGate 是一个网关。');
    expect(fastgpt.quota).toBeGreaterThan(0);
    for (const name of ['baiduV2', 'bailian', 'fastgpt'])
      expect(await probe(name), name).toMatchObject({ success: true });
  });

  test('vendor errors keep their message: MiniMax 200 errors and a wrong Spark password', async () => {
    /** The channel test of a channel that holds a key the mock refuses. */
    const testWithWrongKey = async (name: string, type: number, baseUrl: string, model: string, query = '') => {
      const channel = await createChannel(kit.server, { name, type, key: 'nope', base_url: baseUrl, models: model });
      return (await kit.root.get(`/api/channel/test/${channel.id}${query}`)).body;
    };
    const answer = await testWithWrongKey('mm-wrong', 27, mocks.minimax!.url, 'abab-wrong');
    expect(answer.success).toBe(false);
    expect(answer.message).toContain('login fail');
    const spark = await testWithWrongKey(
      'xf-wrong',
      48,
      mocks.xunfeiV2!.url,
      'generalv3.5-wrong',
      '?model=generalv3.5-wrong',
    );
    expect(spark.message).toContain('auth no license');
  });
});
