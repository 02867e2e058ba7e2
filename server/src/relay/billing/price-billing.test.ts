import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { readLedger } from '../../../test/ledger.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { anthropicMockKey } from '../../../test/mock-upstreams/anthropic.js';
import { startMockUpstream, type MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { createChannel, createToken, createUser, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { waitFor } from '../../../test/wait-for.js';
import { optionDefinitions } from '../../domain/option/option.definitions.js';
import { receiptText } from '../../domain/log/log-receipt.js';
import type { Receipt, SettledReceipt } from '../../domain/pricing/price-call.js';
import { ChannelType } from '../../domain/channel/channel.constants.js';
import { textQuota } from '../../../test/one-api-formulas.js';
import { defaultModelRatios } from '../../domain/pricing/default-ratios.js';
import { completionRatio } from '../../domain/pricing/ratios.js';

/** A Messages API that answers with the usage a test sets, after an optional delay. */
async function startClaude() {
  const state = { usage: {} as Record<string, unknown>, latencyMs: 0 };
  const upstream = await startMockUpstream(async (request, reply) => {
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return reply.json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    await new Promise((resolve) => setTimeout(resolve, state.latencyMs));
    reply.json(200, {
      id: 'msg_priced',
      type: 'message',
      role: 'assistant',
      model: request.json?.model,
      content: [{ type: 'text', text: 'Priced.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: state.usage,
    });
  });
  return Object.assign(upstream, { state });
}

/** OpenAI's answers for the media models priced per second and by token, with the usage the API reports. */
function startMediaUpstream(): Promise<MockUpstream> {
  return startMockUpstream((request, reply) => {
    if (request.path === '/v1/audio/transcriptions')
      // https://platform.openai.com/docs/api-reference/audio/json-object (whisper-1: billed by duration)
      return reply.json(200, { text: 'Hello from the recording', usage: { type: 'duration', seconds: 61 } });
    if (request.path === '/v1/images/generations')
      // https://platform.openai.com/docs/api-reference/images/object (gpt-image-1: billed by token)
      return reply.json(200, {
        created: 1_760_000_000,
        data: [{ b64_json: 'aW1hZ2U=' }],
        usage: {
          total_tokens: 4210,
          input_tokens: 50,
          output_tokens: 4160,
          input_tokens_details: { text_tokens: 40, image_tokens: 10 },
        },
      });
    return reply.json(404, { error: { message: `no route ${request.path}`, type: 'invalid_request_error' } });
  });
}

describe.each(await availableEngines())('calls priced by the price model on $label', (engine) => {
  let server: TestServer;
  let openai: MockOpenAIUpstream;
  let claude: Awaited<ReturnType<typeof startClaude>>;
  let media: MockUpstream;

  const post = (key: string, path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const chat = (key: string, model: string, extra: object = {}) =>
    post(key, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'price me' }], ...extra });

  async function account(username: string, quota: number, group = 'default') {
    const userId = await createUser(server, { username, quota, group });
    const token = await createToken(server, userId, { name: username });
    return { userId, key: token.key };
  }

  /** The user's consume logs, oldest first, with their receipts read back from `other`. */
  async function consumeLogs(userId: number) {
    await settled(server);
    const rows = await server.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      ...row,
      receipt: (JSON.parse(receiptText(row.other, row)) as { receipt: SettledReceipt }).receipt,
    }));
  }

  const linesSum = (receipt: Receipt) => receipt.lines.reduce((sum, line) => sum + line.quota, 0);

  beforeAll(async () => {
    server = await startTestServer({ engine });
    openai = await MockOpenAIUpstream.start();
    claude = await startClaude();
    media = await startMediaUpstream();
    await createChannel(server, {
      name: 'openai',
      base_url: openai.url,
      models: 'gpt-4o,qwen-turbo,mystery-model,typed-model',
      group: 'default,vip',
      priority: 5,
    });
    await createChannel(server, {
      name: 'custom',
      type: ChannelType.Custom,
      base_url: openai.url,
      models: 'typed-model',
    });
    await createChannel(server, {
      name: 'claude',
      type: ChannelType.Anthropic,
      key: anthropicMockKey,
      base_url: claude.url,
      models: 'claude-sonnet-4-5',
    });
    await createChannel(server, { name: 'media', base_url: media.url, models: 'whisper-1,gpt-image-1' });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([openai?.close(), claude?.close(), media?.close()]);
  });

  test("a migrated one-api database's ratios bill exactly as before, and models only one-api's table names keep its price", async () => {
    // The option rows as one-api's console saved them (Go's JSON), read as a restarted node reads them.
    const { db } = server.context.database;
    const rows = {
      ModelRatio: '{"gpt-4o":2.5,"gpt-4o-mini":0.075}',
      CompletionRatio: '{"gpt-4o":4}',
      GroupRatio: '{"default":1,"vip":0.7}',
    };
    for (const [key, value] of Object.entries(rows)) {
      await db.deleteFrom('options').where('key', '=', key).execute();
      await db.insertInto('options').values({ key, value }).execute();
    }
    await server.context.options.reload(db);
    const { userId, key } = await account(`ratios-${engine.name}`, 10_000_000, 'vip');
    openai.set({ usage: { prompt_tokens: 1234, completion_tokens: 567 } });
    expect((await chat(key, 'gpt-4o')).status).toBe(200);
    expect((await chat(key, 'qwen-turbo')).status).toBe(200);

    const usage = { prompt_tokens: 1234, completion_tokens: 567, total_tokens: 1801 };
    const [stored, builtIn] = await consumeLogs(userId);
    expect(stored).toMatchObject({
      content: '倍率：2.50 × 0.70 × 4.00',
      quota: textQuota(usage, 2.5 * 0.7, 4),
    });
    expect(stored!.receipt).toMatchObject({ source: 'ratio', reference: 'ModelRatio', group_ratio: 0.7 });
    const qwenCompletionRatio = completionRatio(server.context, 'qwen-turbo', ChannelType.OpenAI);
    expect(builtIn!.quota).toBe(textQuota(usage, defaultModelRatios['qwen-turbo']! * 0.7, qwenCompletionRatio));
    expect(builtIn!.receipt).toMatchObject({ source: 'ratio', reference: 'one-api built-in ratio table' });
    for (const log of [stored!, builtIn!]) {
      expect(linesSum(log.receipt)).toBe(log.quota);
      expect(log.receipt.quota).toBe(log.quota);
    }
    const ledger = await readLedger(db, userId);
    expect(ledger.quota).toBe(10_000_000 - stored!.quota - builtIn!.quota);

    for (const key of Object.keys(rows)) {
      await db.deleteFrom('options').where('key', '=', key).execute();
      server.context.options.apply(key, optionDefinitions[key as keyof typeof rows].defaultValue);
    }
  });

  test('a catalogue-priced model is charged its list price to the unit; the receipt shows the hold and the refund', async () => {
    // Claude Sonnet 4.5 at Anthropic's list: input 3, cache read 0.3, 5-minute write 3.75, 1-hour write 6,
    // output 15 US$ per 1M tokens; 500,000 quota per US$.
    claude.state.usage = {
      input_tokens: 1000,
      cache_read_input_tokens: 2000,
      cache_creation_input_tokens: 500,
      cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 200 },
      output_tokens: 400,
    };
    claude.state.latencyMs = 400;
    // Small enough for the hold to be written to the database (not trusted on this node alone).
    const { userId, key } = await account(`catalogue-${engine.name}`, 100_000);
    const call = chat(key, 'claude-sonnet-4-5', { max_tokens: 1000 });
    let during = await readLedger(server.context.database.db, userId);
    await waitFor('the call is held', async () => {
      during = await readLedger(server.context.database.db, userId);
      return during.openReservations === 1;
    });
    expect((await call).status).toBe(200);
    claude.state.latencyMs = 0;

    const [log] = await consumeLogs(userId);
    // (1000 × 3 + 2000 × 0.3 + 300 × 3.75 + 200 × 6 + 400 × 15) × 0.5 = 5962.5, rounded up.
    expect(log!.quota).toBe(5963);
    expect(log!.content).toBe('价格：输入 $3/M，输出 $15/M，分组倍率 1.00，缓存读取 2000 tokens，缓存写入 500 tokens');
    const { receipt } = log!;
    expect(receipt).toMatchObject({ source: 'catalogue', group_ratio: 1, tier: null, quota: 5963 });
    expect(receipt.reference).toContain('anthropic/claude-sonnet-4-5');
    expect(receipt.lines.map((line) => [line.item, line.count, line.unit_price])).toEqual([
      ['input', 1000, 3],
      ['cache_read', 2000, 0.3],
      ['cache_write', 300, 3.75],
      ['cache_write_1h', 200, 6],
      ['output', 400, 15],
    ]);
    expect(linesSum(receipt)).toBe(5963);
    // The hold is what the balance lost while the call ran, and the refund what came back.
    expect(receipt.reserved).toBe(100_000 - during.quota);
    expect(receipt.refunded).toBe(receipt.reserved - 5963);
    const after = await readLedger(server.context.database.db, userId);
    expect(after.quota - during.quota).toBe(receipt.refunded - receipt.charged_on_top);
    expect(after).toMatchObject({ quota: 100_000 - 5963, openReservations: 0 });

    // The log APIs return the receipt rendered from what the row stores, in new-api's `other` field.
    const root = await server.rootClient();
    const listed = await root.get(`/api/log/?username=catalogue-${engine.name}`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].other).toBe(JSON.stringify({ receipt }));
  });

  test('a prompt above 200K tokens takes the context tier for the whole request, and the log says so', async () => {
    claude.state.usage = { input_tokens: 250_000, output_tokens: 100 };
    const { userId, key } = await account(`tier-${engine.name}`, 100_000_000);
    expect((await chat(key, 'claude-sonnet-4-5')).status).toBe(200);
    const [log] = await consumeLogs(userId);
    // (250,000 × 6 + 100 × 22.5) × 0.5.
    expect(log!.quota).toBe(751_125);
    expect(log!.content).toBe('价格：输入 $6/M，输出 $22.5/M，分组倍率 1.00，上下文 >200000 tokens 档');
    expect(log!.receipt).toMatchObject({ tier: 200_000, prompt_tokens: 250_000 });
  });

  test('a model nothing prices is refused with model_price_missing and nothing is charged', async () => {
    const { userId, key } = await account(`unknown-${engine.name}`, 1_000_000);
    const requestsBefore = openai.requests.length;
    const refused = await chat(key, 'mystery-model');
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('model_price_missing');
    expect(body.error.message).toContain('mystery-model');
    expect(openai.requests.length).toBe(requestsBefore);
    await settled(server);
    expect(await readLedger(server.context.database.db, userId)).toMatchObject({
      quota: 1_000_000,
      used: 0,
      requests: 0,
      logCount: 0,
      openReservations: 0,
    });
  });

  test("a channel whose type has no price is passed over for one whose type has (an admin's model(type) price)", async () => {
    const root = await server.rootClient();
    const saved = await root.put('/api/price/', { model: `typed-model(${ChannelType.Custom})`, price: { input: 2 } });
    expect(saved.body.success).toBe(true);
    const { userId, key } = await account(`typed-${engine.name}`, 1_000_000);
    openai.set({ usage: { prompt_tokens: 1000, completion_tokens: 10 } });
    expect((await chat(key, 'typed-model')).status).toBe(200);
    const [log] = await consumeLogs(userId);
    // The OpenAI channel (priority 5) has no price for it; the Custom one serves: 1000 × 2 × 0.5 (output free).
    expect(log).toMatchObject({ quota: 1000, content: '价格：输入 $2/M，输出 $0/M，分组倍率 1.00' });
    expect(log!.receipt).toMatchObject({ source: 'admin' });
    await root.delete(`/api/price/?model=typed-model(${ChannelType.Custom})`);
  });

  test("the admin's DefaultModelPrice prices a model nothing else does", async () => {
    const root = await server.rootClient();
    expect(
      (await root.put('/api/option/', { key: 'DefaultModelPrice', value: '{"input":1,"output":2}' })).body,
    ).toEqual(expect.objectContaining({ success: true }));
    const { userId, key } = await account(`default-${engine.name}`, 1_000_000);
    openai.set({ usage: { prompt_tokens: 1001, completion_tokens: 333 } });
    expect((await chat(key, 'mystery-model')).status).toBe(200);
    const [log] = await consumeLogs(userId);
    // (1001 × 1 + 333 × 2) × 0.5 = 833.5, rounded up.
    expect(log).toMatchObject({ quota: 834, content: '价格：输入 $1/M，输出 $2/M，分组倍率 1.00' });
    expect(log!.receipt).toMatchObject({ source: 'default', reference: 'DefaultModelPrice' });
    expect(linesSum(log!.receipt)).toBe(834);
    await root.put('/api/option/', { key: 'DefaultModelPrice', value: '{}' });
  });

  test('media at list prices: seconds of audio for whisper-1, tokens for gpt-image-1', async () => {
    const { userId, key } = await account(`media-${engine.name}`, 100_000_000);
    const form = new FormData();
    form.set('model', 'whisper-1');
    form.set('file', new Blob([Buffer.from('RIFF fake wav')], { type: 'audio/wav' }), 'speech.wav');
    const transcript = await fetch(`${server.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}` },
      body: form,
    });
    expect(transcript.status).toBe(200);
    const image = await post(key, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'a lighthouse' });
    expect(image.status).toBe(200);
    const [audio, picture] = await consumeLogs(userId);
    // US$0.006 a minute: 61 s × US$0.0001 × 500,000.
    expect(audio).toMatchObject({ model_name: 'whisper-1', quota: 3050 });
    expect(audio!.receipt.lines.map((line) => [line.item, line.count])).toEqual([['audio_second', 61]]);
    // 40 text tokens at 5, 10 image tokens at 10, 4,160 image tokens out at 40 US$ per 1M: 83,350.
    expect(picture).toMatchObject({ model_name: 'gpt-image-1', quota: 83_350 });
    for (const log of [audio!, picture!]) expect(linesSum(log.receipt)).toBe(log.quota);
  });
});
