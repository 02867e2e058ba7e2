import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { ledgerProblems, readLedger } from '../../../test/ledger.js';
import { MockOpenAIUpstream } from '../../../test/mock-openai-upstream.js';
import { createChannel, createToken, createUser, settled } from '../../../test/relay-fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import type { ResolvedPrice } from '../../domain/pricing/price.js';
import { priceCall } from '../../domain/pricing/price-call.js';
import { nowSeconds } from '../../lib/time.js';
import { relayRuntime } from '../runtime.js';
import { refund, reserve, settle } from './billing.service.js';
import { sweepReservations } from './reservation-sweeper.js';

// gpt-3.5-turbo: model ratio 0.25, completion ratio 3. The prompt below is estimated at 10 tokens
// (3 per message + role + content at one-api's 0.38 per byte + 3 for the reply) and reported as 10.
const messages = [{ role: 'user' as const, content: 'count me' }];
const price = (completion: number) => Math.ceil((10 + completion * 3) * 0.25);

/** Status of one call (the SDK throws on refusals), its error code when refused. */
async function call(client: OpenAI, body: Record<string, unknown> = {}) {
  try {
    await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages, ...body });
    return { status: 200, code: null };
  } catch (error) {
    if (error instanceof OpenAI.APIError) return { status: error.status, code: error.code ?? null };
    throw error;
  }
}

describe.each(await availableEngines())('the ledger policy on $label', (engine) => {
  let server: TestServer;
  let upstream: MockOpenAIUpstream;
  const clientFor = (key: string) =>
    new OpenAI({ apiKey: `sk-${key}`, baseURL: `${server.url}/v1`, maxRetries: 0, timeout: 20_000 });
  beforeAll(async () => {
    server = await startTestServer({ engine });
    upstream = await MockOpenAIUpstream.start();
    await createChannel(server, { base_url: upstream.url, models: 'gpt-3.5-turbo,gpt-4' });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  test('a call that costs more than its hold is charged in full: the balance goes below zero and blocks the next call', async () => {
    // The vendor counts 2,000 prompt tokens where the gateway estimated 10 (a prompt it cannot count):
    // held for price(10) with max_tokens 10, the call costs (2,000 + 30) × 0.25 = 508.
    upstream.set({ usage: { prompt_tokens: 2000, completion_tokens: 10 } });
    const userId = await createUser(server, { username: `debtor-${engine.name}`, quota: 100 });
    const token = await createToken(server, userId, { name: 'debt' });
    const client = clientFor(token.key);
    expect(await call(client, { max_tokens: 10 })).toEqual({ status: 200, code: null });
    await settled(server);
    const ledger = await readLedger(server.context.database.db, userId);
    expect(ledger.quota).toBe(100 - 508); // −408: a debt, not written off
    expect(ledger.used).toBe(508);
    expect(ledgerProblems(ledger, 100)).toEqual([]);
    expect(await call(client)).toEqual({ status: 403, code: 'insufficient_user_quota' });
  });

  test('50 concurrent calls with max_tokens: the balance admits floor(balance / ceiling) and ends without debt', async () => {
    upstream.set({ latencyMs: 300, usage: { prompt_tokens: 10, completion_tokens: 100 } });
    const userId = await createUser(server, { username: `ceiling-${engine.name}`, quota: 1000 });
    const token = await createToken(server, userId, { name: 'ceiling' });
    const client = clientFor(token.key);
    const results = await Promise.all(Array.from({ length: 50 }, () => call(client, { max_tokens: 100 })));
    const admitted = results.filter((result) => result.status === 200).length;
    // Held at the ceiling: 10 prompt + 100 × 3 output at 0.25 = 78; 1000 / 78 = 12, and the 64 left pay for
    // a 13th cut at the balance to 82 output tokens (more than the 64 worth answering).
    expect(admitted).toBe(Math.floor(1000 / price(100)) + 1);
    for (const result of results.filter((r) => r.status !== 200))
      expect(result).toEqual({ status: 403, code: 'insufficient_user_quota' });
    await settled(server);
    const ledger = await readLedger(server.context.database.db, userId);
    expect(ledger.quota).toBe(1000 - 12 * price(100) - price(82));
    expect(ledger.quota).toBeGreaterThanOrEqual(0);
    expect(ledgerProblems(ledger, 1000)).toEqual([]);
  });

  test('trusted calls hold at most 1 % of the balance on a node; the rest are reserved in the database', async () => {
    upstream.set({ latencyMs: 2000, usage: { prompt_tokens: 10, completion_tokens: 1000 } });
    upstream.requests.length = 0;
    const userId = await createUser(server, { username: `trusted-${engine.name}`, quota: 800_000 });
    const token = await createToken(server, userId, { name: 'trusted' });
    const client = clientFor(token.key);
    const calls = Promise.all(Array.from({ length: 50 }, () => call(client, { max_tokens: 1000 })));
    const { inFlight } = relayRuntime(server.context);
    for (let waited = 0; upstream.requests.length < 50 && waited < 200; waited++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upstream.requests).toHaveLength(50);
    // Held at the ceiling: price(1000) = 753. 1 % of 800,000 is 8,000: ten calls are trusted (7,530).
    expect(inFlight.heldByUser(userId)).toBe(10 * price(1000));
    const open = await readLedger(server.context.database.db, userId);
    expect(open.openReservations).toBe(40);
    expect(open.reserved).toBe(40 * price(1000));
    expect((await calls).every((result) => result.status === 200)).toBe(true);
    await settled(server);
    expect(inFlight.heldByUser(userId)).toBe(0);
    const ledger = await readLedger(server.context.database.db, userId);
    expect(ledger.quota).toBe(800_000 - 50 * price(1000));
    expect(ledgerProblems(ledger, 800_000)).toEqual([]);
  });

  test("the sweeper gives back a dead node's reservation with a log; a settlement arriving after it charges in full", async () => {
    const userId = await createUser(server, { username: `swept-${engine.name}`, quota: 10_000 });
    const token = await createToken(server, userId, { name: 'swept', unlimited_quota: false, remain_quota: 5000 });
    const { context } = server;
    const user = await context.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const tokenRow = await context.database.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    // Two reservations of this node, which (a test server) never beats: to the sweeper it is a dead node.
    const lost = await reserve(context, user, tokenRow, { amount: 700 }, 'lost-call');
    const late = await reserve(context, user, tokenRow, { amount: 300 }, 'late-call');
    expect([lost.amount, late.amount]).toEqual([700, 300]);
    const old = nowSeconds() - 3600;
    await context.database.db.updateTable('reservations').set({ created_at: old }).execute();
    expect(await sweepReservations(context, 'dead-nodes')).toBeGreaterThanOrEqual(2);
    let ledger = await readLedger(context.database.db, userId, { id: token.id, name: 'swept' });
    expect([ledger.quota, ledger.tokenRemain, ledger.openReservations, ledger.givenBackLogs]).toEqual([
      10_000, 5000, 0, 2,
    ]);
    // The "dead" node was only slow: its settlement comes after all, and is charged once, in full.
    // 2 tokens at a ratio of 225: 450.
    const ratio = { model_ratio: 225, completion_ratio: 1, web_searches_per_1000: 0 };
    const resolved: ResolvedPrice = {
      model: 'gpt-3.5-turbo',
      source: 'ratio',
      price: { kind: 'ratio', ratio },
      groupPrice: false,
      reference: 'ModelRatio',
    };
    settle(context, late, {
      receipt: priceCall({ input: 1, output: 1 }, resolved, 1, 500_000).receipt,
      channelId: 0,
      log: {
        content: 'late',
        model_name: 'gpt-3.5-turbo',
        prompt_tokens: 1,
        completion_tokens: 1,
        request_id: 'late-call',
      },
    });
    await refund(context, lost); // and a refund after the sweep gives nothing back twice
    await settled(server);
    ledger = await readLedger(context.database.db, userId, { id: token.id, name: 'swept' });
    expect([ledger.quota, ledger.tokenRemain]).toEqual([10_000 - 450, 5000 - 450]);
    expect(ledgerProblems(ledger, 10_000, 5000)).toEqual([]);
  });
});
