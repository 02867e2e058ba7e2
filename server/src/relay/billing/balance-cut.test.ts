import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { ledgerProblems, readLedger } from '../../../test/ledger.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { anthropicMockKey } from '../../../test/mock-upstreams/anthropic.js';
import { geminiMockKey, startGeminiMock } from '../../../test/mock-upstreams/gemini.js';
import { openAIResponsesMockKey, startOpenAIResponsesMock } from '../../../test/mock-upstreams/openai-responses.js';
import { startMockUpstream, type MockUpstream } from '../../../test/mock-upstreams/mock-kit.js';
import { createChannel, createToken, createUser, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { ChannelType } from '../../domain/channel/channel.constants.js';
import { receiptText } from '../../domain/log/log-receipt.js';
import type { SettledReceipt } from '../../domain/pricing/price-call.js';

// gpt-3.5-turbo: model ratio 0.25, completion ratio 3, at most 4,096 output tokens. The prompt below is
// estimated at 10 tokens (3 per message + role + content at one-api's 0.38 per byte + 3 for the reply).
const messages = [{ role: 'user' as const, content: 'count me' }];
const estimatedPrompt = 10;
const price = (prompt: number, completion: number) => Math.ceil((prompt + completion * 3) * 0.25);

/** A Messages API whose model writes `output` tokens unless the request's max_tokens stops it first. */
function startClaude(output: number): Promise<MockUpstream> {
  return startMockUpstream((request, reply) => {
    if (request.headers['x-api-key'] !== anthropicMockKey)
      return reply.json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    const limit = Number(request.json?.max_tokens);
    reply.json(200, {
      id: 'msg_capped',
      type: 'message',
      role: 'assistant',
      model: request.json?.model,
      content: [{ type: 'text', text: 'A long answer…' }],
      stop_reason: output > limit ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: Math.min(output, limit) },
    });
  });
}

/** Status of one chat call (the SDK throws on refusals) and its error code when refused. */
async function chat(client: OpenAI, body: Record<string, unknown> = {}, stream = false) {
  try {
    if (stream) {
      const events = await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages, stream, ...body });
      for await (const _event of events);
    } else await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages, ...body });
    return { status: 200, code: null };
  } catch (error) {
    if (error instanceof OpenAI.APIError) return { status: error.status, code: error.code ?? null };
    throw error;
  }
}

const receiptsOf = async (server: TestServer, userId: number) =>
  (
    await server.context.database.db
      .selectFrom('logs')
      .select(['other', 'model_name', 'quota'])
      .where('user_id', '=', userId)
      .where('type', '=', 2)
      .execute()
  ).map((row) => (JSON.parse(receiptText(row.other, row) || '{}') as { receipt: SettledReceipt }).receipt);

describe.each(await availableEngines())('calls cut at the balance on $label', (engine) => {
  let server: TestServer;
  let second: TestServer;
  let upstream: MockOpenAIUpstream;
  let claude: MockUpstream;
  let responses: MockUpstream;
  let gemini: MockUpstream;
  const clientOf = (node: TestServer, key: string) =>
    new OpenAI({ apiKey: `sk-${key}`, baseURL: `${node.url}/v1`, maxRetries: 0, timeout: 20_000 });
  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start();
    claude = await startClaude(100_000);
    // The model writes 100,000 tokens unless max_output_tokens stops it first.
    responses = await startOpenAIResponsesMock((body) => {
      const limit = Number(body.max_output_tokens ?? Infinity);
      return {
        output: [{ type: 'message', text: 'A long answer…' }],
        status: limit < 100_000 ? 'incomplete' : 'completed',
        usage: { input: 10, output: Math.min(100_000, limit) },
      };
    });
    gemini = await startGeminiMock();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo' });
    await createChannel(server, {
      name: 'claude',
      type: ChannelType.Anthropic,
      key: anthropicMockKey,
      base_url: claude.url,
      models: 'claude-opus-4-1',
    });
    await createChannel(server, {
      name: 'responses',
      key: openAIResponsesMockKey,
      base_url: responses.url,
      models: 'gpt-4o',
    });
    await createChannel(server, {
      name: 'gemini',
      type: ChannelType.Gemini,
      key: geminiMockKey,
      base_url: gemini.url,
      models: 'gemini-2.5-flash',
    });
    // A second node on the same database: it loads the channels as it starts.
    second = await startTestServer({ engine, shareDatabaseWith: server });
  });
  afterAll(async () => {
    await second?.close();
    await server?.close();
    await upstream?.close();
    await claude?.close();
    await responses?.close();
    await gemini?.close();
  });

  test('50 concurrent calls without max_tokens whose answers run long: the debt stays within the prompt estimate', async () => {
    // Each answer runs to the model's limit unless the request caps it; the vendor counts a prompt of 30
    // tokens where the gateway estimated 10, so each call may cost 20 × 0.25 = 5 more than its hold.
    const reportedPrompt = 30;
    // The answers wait until every call was admitted or refused: a charge settled sooner (each is 5 more than
    // its hold) would lower the balance the seventh call is cut at.
    let answer!: () => void;
    const heldUntil = new Promise<void>((resolve) => (answer = resolve));
    upstream.set({ heldUntil, usage: { prompt_tokens: reportedPrompt, completion_tokens: 4096 } });
    upstream.requests.length = 0;
    const userId = await createUser(server, { username: `uncapped-${engine.name}`, quota: 20_000 });
    const token = await createToken(server, userId, { name: 'uncapped' });
    const client = clientOf(server, token.key);
    let refused = 0;
    const calls = Array.from({ length: 50 }, async (_, index) => {
      const result = await chat(client, {}, index % 2 === 1);
      if (result.status !== 200) refused += 1;
      return result;
    });
    for (let check = 0; upstream.requests.length + refused < 50; check++) {
      if (check === 3000) throw new Error(`only ${upstream.requests.length + refused} of 50 calls admitted or refused`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    answer();
    const results = await Promise.all(calls);
    const answered = results.filter((result) => result.status === 200).length;
    for (const result of results.filter((r) => r.status !== 200))
      expect(result).toEqual({ status: 403, code: 'insufficient_user_quota' });
    await settled(server);
    const ledger = await readLedger(server.context.database.db, userId);
    // The prompt estimate's error: 20 tokens at 0.25, and a unit of rounding, per answered call.
    const estimateError = answered * (Math.ceil((reportedPrompt - estimatedPrompt) * 0.25) + 1);
    expect(ledger.quota).toBeGreaterThanOrEqual(-estimateError);
    expect(ledgerProblems(ledger, 20_000)).toEqual([]);
    // Held for the model's 4,096 tokens each (3,075): six calls whole, a seventh cut to what was left.
    const worstCase = price(estimatedPrompt, 4096);
    expect(answered).toBe(Math.floor(20_000 / worstCase) + 1);
    // An OpenAI channel gets the cap as max_completion_tokens, the field OpenAI's reasoning models accept too.
    const capped = upstream.requests.filter((request) => request.json?.max_completion_tokens !== undefined);
    expect(capped).toHaveLength(1);
    expect(capped[0]!.json.max_tokens).toBeUndefined();
    const cap = capped[0]!.json.max_completion_tokens as number;
    expect(price(estimatedPrompt, cap)).toBeLessThanOrEqual(20_000 - 6 * worstCase);
    expect(price(estimatedPrompt, cap + 1)).toBeGreaterThan(20_000 - 6 * worstCase);
    const receipts = await receiptsOf(server, userId);
    expect(receipts.filter((receipt) => receipt.capped_by_balance)).toEqual([
      expect.objectContaining({ capped_by_balance: true, output_cap: cap }),
    ]);
    // Nothing is left to pay for a call: the next is refused.
    expect(await chat(client)).toEqual({ status: 403, code: 'insufficient_user_quota' });
  });

  test("a $2 balance runs Claude Code's max_tokens 128000 on the Anthropic front, capped by the balance", async () => {
    // claude-opus-4-1 at US$75 per 1M output tokens writes at most 32,000: US$2.40, more than the balance.
    claude.requests.length = 0;
    const userId = await createUser(server, { username: `claude-code-${engine.name}`, quota: 1_000_000 });
    const token = await createToken(server, userId, { name: 'claude-code' });
    // A timeout of its own: without one the SDK refuses a whole answer this long before sending it.
    const client = new Anthropic({ apiKey: `sk-${token.key}`, baseURL: server.url, maxRetries: 0, timeout: 20_000 });
    const message = await client.messages.create({
      model: 'claude-opus-4-1',
      max_tokens: 128_000,
      messages: [{ role: 'user', content: 'Write the whole program.' }],
    });
    expect(message.stop_reason).toBe('max_tokens');
    const sent = claude.requests[0]!.json!.max_tokens as number;
    // What US$2 pays at US$75 per 1M beside the prompt: just under 26,667 tokens.
    expect(sent).toBeGreaterThan(26_000);
    expect(sent).toBeLessThan(26_667);
    expect(message.usage.output_tokens).toBe(sent);
    await settled(server);
    const ledger = await readLedger(server.context.database.db, userId);
    // A debt no larger than the prompt estimate's error: less than the 20 prompt tokens' price (US$15 per 1M).
    expect(ledger.quota).toBeGreaterThan(-20 * 7.5);
    expect(ledgerProblems(ledger, 1_000_000)).toEqual([]);
    expect(await receiptsOf(server, userId)).toEqual([
      expect.objectContaining({ capped_by_balance: true, output_cap: sent }),
    ]);
  });

  test('the Responses front, served natively: max_output_tokens is cut at the balance', async () => {
    // gpt-4o at US$10 per 1M output tokens writes at most 16,384: 81,920 units, more than the 50,000 left.
    responses.requests.length = 0;
    const userId = await createUser(server, { username: `responses-${engine.name}`, quota: 50_000 });
    const token = await createToken(server, userId, { name: 'responses' });
    const response = await clientOf(server, token.key).responses.create({ model: 'gpt-4o', input: 'Write it all.' });
    expect(response.status).toBe('incomplete');
    const sent = responses.requests[0]!.json!.max_output_tokens as number;
    // What 50,000 units pay at 5 a token beside the prompt: just under 10,000 tokens.
    expect(sent).toBeGreaterThan(9900);
    expect(sent).toBeLessThan(10_000);
    await settled(server);
    expect(await receiptsOf(server, userId)).toEqual([
      expect.objectContaining({ capped_by_balance: true, output_cap: sent }),
    ]);
  });

  test("the Gemini front, served natively: generationConfig's maxOutputTokens is cut at the balance", async () => {
    // gemini-2.5-flash at US$2.50 per 1M output tokens writes at most 65,536: 81,920 units, more than 50,000.
    gemini.requests.length = 0;
    const userId = await createUser(server, { username: `gemini-${engine.name}`, quota: 50_000 });
    const token = await createToken(server, userId, { name: 'gemini' });
    const answer = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': `sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'Write it all.' }] }],
        generationConfig: { temperature: 0.5 },
      }),
    });
    expect(answer.status).toBe(200);
    await answer.json();
    const sent = gemini.requests[0]!.json!.generationConfig as { maxOutputTokens: number; temperature: number };
    // What 50,000 units pay at 1.25 a token beside the prompt: just under 40,000 tokens.
    expect(sent.temperature).toBe(0.5);
    expect(sent.maxOutputTokens).toBeGreaterThan(39_900);
    expect(sent.maxOutputTokens).toBeLessThan(40_000);
    await settled(server);
    expect(await receiptsOf(server, userId)).toEqual([
      expect.objectContaining({ capped_by_balance: true, output_cap: sent.maxOutputTokens }),
    ]);
  });

  test('a user in debt is refused on every node: 30 cheap calls right after a burst, none answered', async () => {
    // The vendor counts 20,000 prompt tokens where the gateway estimated 10 (a prompt it cannot count): each
    // call costs about 5,000 more than its hold, and a burst of 20 takes the balance well below zero.
    upstream.set({ latencyMs: 200, usage: { prompt_tokens: 20_000, completion_tokens: 10 } });
    const userId = await createUser(server, { username: `debt-${engine.name}`, quota: 20_000 });
    const token = await createToken(server, userId, { name: 'debt' });
    const onFirst = clientOf(server, token.key);
    const onSecond = clientOf(second, token.key);
    // The second node has served this user while the balance was high: its cached row says 20,000 or so.
    expect(await chat(onSecond, { max_tokens: 10 })).toEqual({ status: 200, code: null });
    await settled(second);
    const burst = await Promise.all(Array.from({ length: 20 }, () => chat(onFirst, { max_tokens: 10 })));
    expect(burst.filter((result) => result.status === 200).length).toBeGreaterThan(4);
    await settled(server);
    expect((await readLedger(server.context.database.db, userId)).quota).toBeLessThan(0);
    upstream.set({ usage: { prompt_tokens: 10, completion_tokens: 1 } });
    const cheap = await Promise.all(
      Array.from({ length: 30 }, (_, index) => chat(index % 2 === 0 ? onFirst : onSecond, { max_tokens: 1 })),
    );
    expect(cheap.filter((result) => result.status === 200)).toHaveLength(0);
    for (const result of cheap) expect(result).toEqual({ status: 403, code: 'insufficient_user_quota' });
    await settled(server);
    await settled(second);
    expect(ledgerProblems(await readLedger(server.context.database.db, userId), 20_000)).toEqual([]);
  });
});
