import { expect } from 'vitest';
import { ChannelType } from '../src/domain/channel/channel.constants.js';
import { receiptText } from '../src/domain/log/log-receipt.js';
import type { Engine } from './engines.js';
import { setOptions } from './account-helpers.js';
import { startPricedVendors, type Ending, type PricedVendors } from './mock-upstreams/priced-vendors.js';
import { balances, createChannel, createToken, createUser, settled } from './relay-fixtures.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * A decimal as written on a price page, exactly: `units / 10^scale`. The matrix's expected charges are
 * computed from these with integers only, independently of the gateway's own arithmetic.
 */
function exact(text: string): { units: bigint; scale: number } {
  const [whole = '0', fraction = ''] = text.split('.');
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

const ceilDivide = (numerator: bigint, denominator: bigint) => (numerator + denominator - 1n) / denominator;

/** What a call must cost, line by line: token classes at US$ per 1M tokens, units at US$ each. */
export interface ExpectedLines {
  tokens: Record<string, [count: number, usdPerMillion: string]>;
  units?: Record<string, [count: number, usdEach: string]>;
}

/**
 * The charge of a list price: Σ count × US$/1M × QuotaPerUnit × group ratio / 10⁶ over the token lines,
 * rounded up once, plus each per-unit line (count × US$ × QuotaPerUnit × group ratio) rounded up on its own.
 */
export function expectedQuota(lines: ExpectedLines, groupRatio: string, quotaPerUnit = 500_000): number {
  const ratio = exact(groupRatio);
  const perUnit = BigInt(quotaPerUnit);
  const tokenPrices = Object.values(lines.tokens).map(([count, price]) => ({ count, price: exact(price) }));
  const scale = Math.max(0, ...tokenPrices.map(({ price }) => price.scale));
  const numerator = tokenPrices.reduce(
    (sum, { count, price }) => sum + BigInt(count) * price.units * 10n ** BigInt(scale - price.scale),
    0n,
  );
  const denominator = 10n ** BigInt(6 + scale + ratio.scale);
  let quota = ceilDivide(numerator * perUnit * ratio.units, denominator);
  for (const [count, price] of Object.values(lines.units ?? {})) {
    const each = exact(price);
    quota += ceilDivide(BigInt(count) * each.units * perUnit * ratio.units, 10n ** BigInt(each.scale + ratio.scale));
  }
  return Number(quota);
}

export type Front = 'chat' | 'messages' | 'responses' | 'gemini';

/** The matrix's group and its ratio (a one-api GroupRatio entry; 0.8 is not exact in binary). */
export const matrixGroup = 'matrix';
export const matrixGroupRatio = '0.8';

export interface MatrixGateway {
  server: TestServer;
  vendors: PricedVendors;
  userId: number;
  token: { id: number; key: string };
  close(): Promise<void>;
}

/**
 * A started server whose group `matrix` (ratio 0.8) reaches four vendors on one loopback upstream: an OpenAI
 * channel (its models answered as chat completions or natively as Responses), a Claude channel, a Gemini
 * channel and a DeepSeek channel; and a user of that group with a limited token.
 */
export async function startMatrixGateway(
  engine: Engine,
  models: { openai: string[]; anthropic: string[]; gemini: string[]; deepseek: string[] },
): Promise<MatrixGateway> {
  const server = await startTestServer({ engine });
  const vendors = await startPricedVendors();
  const root = await server.rootClient();
  await setOptions(root, {
    GroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1, [matrixGroup]: Number(matrixGroupRatio) }),
  });
  const channels: [number, string[]][] = [
    [ChannelType.OpenAI, models.openai],
    [ChannelType.Anthropic, models.anthropic],
    [ChannelType.Gemini, models.gemini],
    [ChannelType.DeepSeek, models.deepseek],
  ];
  for (const [type, served] of channels)
    await createChannel(server, {
      type,
      name: `matrix ${type}`,
      key: `matrix-key-${type}`,
      base_url: vendors.url,
      models: served.join(','),
      group: matrixGroup,
    });
  const userId = await createUser(server, { username: 'matrix', quota: 1_000_000_000, group: matrixGroup });
  const token = await createToken(server, userId, { unlimited_quota: false, remain_quota: 1_000_000_000 });
  return {
    server,
    vendors,
    userId,
    token,
    close: async () => {
      await server.close();
      await vendors.close();
    },
  };
}

/** One call through a front: the case and ending the upstream plays, streamed or not. */
export interface FrontCall {
  front: Front;
  model: string;
  caseName: string;
  ending: Ending;
  stream: boolean;
  /** More fields for the front's body (tools). */
  extra?: Record<string, unknown>;
}

/** Sends the call as that front's clients do and reads the whole answer (a broken-off stream included). */
export async function callFront(gateway: MatrixGateway, call: FrontCall): Promise<{ status: number; text: string }> {
  const prompt = `Summarise the contract. case=${call.caseName};end=${call.ending}`;
  const key = `sk-${gateway.token.key}`;
  const { front, model, stream } = call;
  const request: Record<Front, () => [string, Record<string, string>, Record<string, unknown>]> = {
    chat: () => [
      '/v1/chat/completions',
      { authorization: `Bearer ${key}` },
      { model, stream, messages: [{ role: 'user', content: prompt }] },
    ],
    messages: () => [
      '/v1/messages',
      { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      { model, stream, max_tokens: 1024, messages: [{ role: 'user', content: prompt }] },
    ],
    responses: () => ['/v1/responses', { authorization: `Bearer ${key}` }, { model, stream, input: prompt }],
    gemini: () => [
      `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      { 'x-goog-api-key': key },
      { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
    ],
  };
  const [path, headers, body] = request[front]();
  const response = await fetch(`${gateway.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ ...body, ...call.extra }),
  });
  return { status: response.status, text: await response.text() };
}

/** A receipt as the consume log's `other` holds it. */
export interface StoredReceipt {
  source: string;
  group_ratio: number;
  tier: number | null;
  lines: { item: string; count: number; quota: number }[];
  quota: number;
  reserved: number;
  refunded: number;
  charged_on_top: number;
}

/** What one call did to the books: its consume log (with the receipt) and how the balances moved. */
export interface Charge {
  quota: number;
  promptTokens: number;
  completionTokens: number;
  receipt: StoredReceipt;
  userCharged: number;
  userUsedRaised: number;
  tokenCharged: number;
  /** When the call started and ended (a price may depend on the time of day). */
  startedAt: Date;
  endedAt: Date;
}

/** Runs one call and reads the one consume log it wrote and the balances it moved. */
export async function chargeOf(gateway: MatrixGateway, call: FrontCall): Promise<Charge> {
  const { server, userId, token } = gateway;
  const before = await balances(server, userId, token.id);
  const logs = server.context.logDatabase.db;
  const newest = await logs
    .selectFrom('logs')
    .select((expression) => expression.fn.max('id').as('id'))
    .executeTakeFirst();
  const startedAt = new Date();
  const answer = await callFront(gateway, call);
  const endedAt = new Date();
  expect(answer.status, answer.text.slice(0, 500)).toBe(200);
  await settled(server);
  const after = await balances(server, userId, token.id);
  const rows = await logs
    .selectFrom('logs')
    .select(['quota', 'prompt_tokens', 'completion_tokens', 'model_name', 'other'])
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .where('id', '>', Number(newest?.id ?? 0))
    .execute();
  expect(rows, 'one consume log per call').toHaveLength(1);
  const row = rows[0]!;
  const { receipt } = JSON.parse(receiptText(row.other, row)) as { receipt: StoredReceipt };
  return {
    quota: Number(row.quota),
    promptTokens: Number(row.prompt_tokens),
    completionTokens: Number(row.completion_tokens),
    receipt,
    userCharged: before.userQuota - after.userQuota,
    userUsedRaised: after.userUsed - before.userUsed,
    tokenCharged: before.tokenRemain - after.tokenRemain,
    startedAt,
    endedAt,
  };
}

/**
 * The books of one call agree with `quota`: the log's quota, the user's balance, used quota and the token's
 * remaining quota moved by exactly it; the receipt's lines add up to it, and its hold less what came back
 * plus what was charged on top is it.
 */
export function expectBooked(charge: Charge, quota: number): void {
  expect(charge.quota, 'the consume log’s quota').toBe(quota);
  expect(charge.userCharged, 'the user’s balance moved by').toBe(quota);
  expect(charge.userUsedRaised, 'the user’s used quota moved by').toBe(quota);
  expect(charge.tokenCharged, 'the token’s remaining quota moved by').toBe(quota);
  const { receipt } = charge;
  expect(receipt.quota, 'the receipt’s total').toBe(quota);
  expect(
    receipt.lines.reduce((sum, line) => sum + line.quota, 0),
    'the receipt’s lines add up',
  ).toBe(quota);
  expect(receipt.reserved, 'a hold was taken').toBeGreaterThan(0);
  expect(receipt.reserved - receipt.refunded + receipt.charged_on_top, 'hold − refund + on top').toBe(quota);
  expect(Math.min(receipt.refunded, receipt.charged_on_top), 'refunded or charged on top, not both').toBe(0);
}
