import { findProvider } from '@pydantic/genai-prices';
import { describe, expect, test } from 'vitest';
import { setOptions } from '../../../test/account-helpers.js';
import { availableEngines } from '../../../test/engines.js';
import { answerPieces, type CaseUsages, type Ending } from '../../../test/mock-upstreams/priced-vendors.js';
import {
  chargeOf,
  expectBooked,
  expectedQuota,
  matrixGroupRatio,
  startMatrixGateway,
  type ExpectedLines,
  type Front,
  type MatrixGateway,
} from '../../../test/price-matrix.js';
import { startedForSuite } from '../../../test/suite-lifecycle.js';
import { countText } from '../tokenizer/count-tokens.js';

/*
 * Issue 19's first "done when": usages recorded from each vendor's documentation, priced to the unit through
 * every front, whole, streamed and broken off, on each engine. The expected charges are computed here from the
 * vendors' list prices with integers (test/price-matrix.ts), never by the gateway's own priceCall.
 */

/** US$ per 1M tokens (or per unit), as the vendors' price pages write them. */
const prices = {
  // https://platform.openai.com/docs/pricing (gpt-4.1; the web search tool: $10.00 per 1K calls).
  gpt41: { input: '2', cache_read: '0.5', output: '8', web_search: '0.01' },
  // https://docs.claude.com/en/docs/about-claude/pricing (Sonnet 4.5, prompts ≤ 200K: base input, 5-minute and
  // 1-hour cache writes at 1.25× and 2×, cache hits at 0.1×; web search $10 per 1K searches).
  sonnet45: {
    input: '3',
    cache_write: '3.75',
    cache_write_1h: '6',
    cache_read: '0.3',
    output: '15',
    web_search: '0.01',
  },
  // https://ai.google.dev/gemini-api/docs/pricing#gemini-2.5-pro: prompts ≤ 200K tokens, and > 200K (the whole
  // request), input, context caching and output (thinking included).
  gemini25Pro: { input: '1.25', cache_read: '0.125', output: '10' },
  gemini25ProOver200K: { input: '2.5', cache_read: '0.25', output: '15' },
  // https://api-docs.deepseek.com/quick_start/pricing, the list the catalogue holds: standard price UTC
  // 00:30–16:30 (cache hit, cache miss, output), and the discount price 16:30–00:30.
  deepseekChatStandard: { cache_read: '0.07', input: '0.27', output: '1.1' },
  deepseekChatDiscount: { cache_read: '0.035', input: '0.135', output: '0.55' },
  // https://docs.perplexity.ai/getting-started/pricing: Sonar, $1 per 1M tokens in and out, and a request fee
  // of $5 per 1K requests at low search context: an admin's price (the catalogue holds the high-context fee).
  sonarLowContext: { input: '1', output: '1', per_call: '0.005' },
};

describe('the list prices written here', () => {
  const model = (provider: string, id: string) =>
    findProvider({ providerId: provider })?.models.find((entry) => entry.id === id)?.prices;
  const tiered = (base: string, over: string) => ({
    base: Number(base),
    tiers: [{ start: 200_000, price: Number(over) }],
  });

  test('are the catalogue’s (@pydantic/genai-prices 0.1.8)', () => {
    expect(model('openai', 'gpt-4.1')).toMatchObject({
      input_mtok: Number(prices.gpt41.input),
      cache_read_mtok: Number(prices.gpt41.cache_read),
      output_mtok: Number(prices.gpt41.output),
      web_searches_kcount: Number(prices.gpt41.web_search) * 1000,
    });
    const sonnet = prices.sonnet45;
    expect(model('anthropic', 'claude-sonnet-4-5')).toMatchObject({
      input_mtok: { base: Number(sonnet.input) },
      cache_write_mtok: { base: Number(sonnet.cache_write) },
      cache_write_1h_mtok: { base: Number(sonnet.cache_write_1h) },
      cache_read_mtok: { base: Number(sonnet.cache_read) },
      output_mtok: { base: Number(sonnet.output) },
      web_searches_kcount: Number(sonnet.web_search) * 1000,
    });
    const [base, over] = [prices.gemini25Pro, prices.gemini25ProOver200K];
    expect(model('google', 'gemini-2.5-pro')).toEqual({
      input_mtok: tiered(base.input, over.input),
      cache_read_mtok: tiered(base.cache_read, over.cache_read),
      output_mtok: tiered(base.output, over.output),
    });
    const asPackage = (list: Record<string, string>) => ({
      input_mtok: Number(list.input),
      cache_read_mtok: Number(list.cache_read),
      output_mtok: Number(list.output),
    });
    expect(model('deepseek', 'deepseek-chat')).toEqual([
      { prices: asPackage(prices.deepseekChatDiscount) },
      {
        constraint: { start_time: '00:30:00Z', end_time: '16:30:00Z', type: 'time_of_date' },
        prices: asPackage(prices.deepseekChatStandard),
      },
    ]);
    expect(model('perplexity', 'sonar')).toMatchObject({ input_mtok: 1, output_mtok: 1, requests_kcount: 12 });
  });
});

/** The DeepSeek list in force at a time: the standard price from 00:30 to 16:30 UTC, else the discount. */
function deepseekAt(at: Date): Record<string, string> {
  const minutes = at.getUTCHours() * 60 + at.getUTCMinutes();
  return minutes >= 30 && minutes < 16 * 60 + 30 ? prices.deepseekChatStandard : prices.deepseekChatDiscount;
}

/** A vendor's recorded usage, what the log must say of it, and the lines it must be charged. */
interface PricedCase {
  label: string;
  model: string;
  usages: CaseUsages;
  promptTokens: number;
  completionTokens: number;
  /** The expected lines, at the call's time (DeepSeek's price depends on the hour). */
  lines(at: Date): ExpectedLines;
  tier?: number;
}

const t = (count: number, price: string): [number, string] => [count, price];

/** https://platform.openai.com/docs/guides/prompt-caching: its usage example (1,920 of 2,006 prompt tokens cached). */
const openaiCached: PricedCase = {
  label: 'OpenAI cached input (gpt-4.1)',
  model: 'gpt-4.1',
  usages: {
    chat: {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920 },
      completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    responses: { input: 2006, cached: 1920, output: 300 },
  },
  promptTokens: 2006,
  completionTokens: 300,
  lines: () => ({
    tokens: {
      input: t(86, prices.gpt41.input),
      cache_read: t(1920, prices.gpt41.cache_read),
      output: t(300, prices.gpt41.output),
    },
  }),
};

/**
 * https://docs.claude.com/en/docs/build-with-claude/prompt-caching, its 1-hour cache example: 2,048 uncached
 * input tokens, 1,800 read, 248 written (148 for 5 minutes, 100 for 1 hour), 503 output.
 */
const claudeCached: PricedCase = {
  label: 'Anthropic cache read and both write TTLs (claude-sonnet-4-5)',
  model: 'claude-sonnet-4-5',
  usages: {
    messages: {
      input_tokens: 2048,
      cache_read_input_tokens: 1800,
      cache_creation_input_tokens: 248,
      output_tokens: 503,
      cache_creation: { ephemeral_1h_input_tokens: 100, ephemeral_5m_input_tokens: 148 },
    },
  },
  promptTokens: 2048 + 1800 + 248,
  completionTokens: 503,
  lines: () => ({
    tokens: {
      input: t(2048, prices.sonnet45.input),
      cache_read: t(1800, prices.sonnet45.cache_read),
      cache_write: t(148, prices.sonnet45.cache_write),
      cache_write_1h: t(100, prices.sonnet45.cache_write_1h),
      output: t(503, prices.sonnet45.output),
    },
  }),
};

/** https://ai.google.dev/gemini-api/docs/caching, its example: 696,190 of 696,219 prompt tokens from the cache. */
const geminiCachedOver200K: PricedCase = {
  label: 'Gemini cached content above 200K (gemini-2.5-pro)',
  model: 'gemini-2.5-pro',
  usages: {
    gemini: {
      promptTokenCount: 696_219,
      cachedContentTokenCount: 696_190,
      candidatesTokenCount: 214,
      totalTokenCount: 696_433,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 696_219 }],
      cacheTokensDetails: [{ modality: 'TEXT', tokenCount: 696_190 }],
      candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: 214 }],
    },
  },
  promptTokens: 696_219,
  completionTokens: 214,
  tier: 200_000,
  lines: () => ({
    tokens: {
      input: t(29, prices.gemini25ProOver200K.input),
      cache_read: t(696_190, prices.gemini25ProOver200K.cache_read),
      output: t(214, prices.gemini25ProOver200K.output),
    },
  }),
};

/**
 * https://api-docs.deepseek.com/api/create-chat-completion (usage) and https://api-docs.deepseek.com/guides/kv_cache
 * (hit + miss = prompt): 1,280 of 1,540 prompt tokens hit the cache.
 */
const deepseekHit: PricedCase = {
  label: 'DeepSeek cache hit (deepseek-chat)',
  model: 'deepseek-chat',
  usages: {
    chat: {
      prompt_tokens: 1540,
      completion_tokens: 812,
      total_tokens: 2352,
      prompt_cache_hit_tokens: 1280,
      prompt_cache_miss_tokens: 260,
    },
  },
  promptTokens: 1540,
  completionTokens: 812,
  lines: (at) => {
    const list = deepseekAt(at);
    return {
      tokens: { input: t(260, list.input!), cache_read: t(1280, list.cache_read!), output: t(812, list.output!) },
    };
  },
};

/**
 * Either side of Gemini 2.5 Pro's threshold ("prompts <= 200k tokens"; the cache counts in the prompt): a
 * prompt of exactly 200,000 tokens keeps the base prices, one token more switches the whole request.
 */
const geminiAt = (prompt: number): PricedCase => {
  const list = prompt > 200_000 ? prices.gemini25ProOver200K : prices.gemini25Pro;
  return {
    label: `Gemini ${prompt.toLocaleString('en')}-token prompt, 180,000 cached (gemini-2.5-pro)`,
    model: 'gemini-2.5-pro',
    usages: {
      gemini: {
        promptTokenCount: prompt,
        cachedContentTokenCount: 180_000,
        candidatesTokenCount: 1000,
        totalTokenCount: prompt + 1000,
      },
    },
    promptTokens: prompt,
    completionTokens: 1000,
    tier: prompt > 200_000 ? 200_000 : undefined,
    lines: () => ({
      tokens: {
        input: t(prompt - 180_000, list.input),
        cache_read: t(180_000, list.cache_read),
        output: t(1000, list.output),
      },
    }),
  };
};

/**
 * https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool: the usage of its answer (two
 * searches) and of its stream (message_start before the search, message_delta's cumulative counts after it).
 */
const claudeSearched: PricedCase = {
  label: 'Claude web search, whole (claude-sonnet-4-5)',
  model: 'claude-sonnet-4-5',
  usages: {
    messages: {
      input_tokens: 6039,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 931,
      server_tool_use: { web_search_requests: 2 },
    },
  },
  promptTokens: 6039,
  completionTokens: 931,
  lines: () => ({
    tokens: { input: t(6039, prices.sonnet45.input), output: t(931, prices.sonnet45.output) },
    units: { web_search: t(2, prices.sonnet45.web_search) },
  }),
};
const claudeSearchedStream: PricedCase = {
  label: 'Claude web search, streamed (claude-sonnet-4-5)',
  model: 'claude-sonnet-4-5',
  usages: {
    messagesStart: { input_tokens: 2679, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 3 },
    messages: {
      input_tokens: 10682,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 510,
      server_tool_use: { web_search_requests: 1 },
    },
  },
  promptTokens: 10682,
  completionTokens: 510,
  lines: () => ({
    tokens: { input: t(10682, prices.sonnet45.input), output: t(510, prices.sonnet45.output) },
    units: { web_search: t(1, prices.sonnet45.web_search) },
  }),
};

/** The prompt-caching usage again, with one web_search_call item (https://platform.openai.com/docs/guides/tools-web-search). */
const openaiSearched: PricedCase = {
  ...openaiCached,
  label: 'OpenAI Responses web_search_call (gpt-4.1)',
  usages: { responses: { input: 2006, cached: 1920, output: 300, searches: 1 } },
  lines: () => ({ ...openaiCached.lines(new Date()), units: { web_search: t(1, prices.gpt41.web_search) } }),
};

/**
 * A model priced per call by the admin (PUT /api/price/): the usage of the chat completion object's example
 * (https://platform.openai.com/docs/api-reference/chat/object: 19 prompt and 10 completion tokens).
 */
const sonarPerCall: PricedCase = {
  label: 'a per-call price (sonar, admin price)',
  model: 'sonar',
  usages: {
    chat: { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29 },
    responses: { input: 19, output: 10 },
  },
  promptTokens: 19,
  completionTokens: 10,
  lines: () => ({
    tokens: { input: t(19, prices.sonarLowContext.input), output: t(10, prices.sonarLowContext.output) },
    units: { per_call: t(1, prices.sonarLowContext.per_call) },
  }),
};

const whole = { stream: false, ending: 'done' as const };
const streamed = { stream: true, ending: 'done' as const };
const webSearchTool = { tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }] };

/** Tiers, searches and per-call prices, through the fronts that reach them. */
const specials = [
  { priced: geminiAt(200_000), front: 'gemini' as const, ...whole },
  { priced: geminiAt(200_001), front: 'gemini' as const, ...whole },
  { priced: geminiAt(200_001), front: 'chat' as const, ...streamed },
  { priced: claudeSearched, front: 'messages' as const, ...whole, extra: webSearchTool },
  { priced: claudeSearchedStream, front: 'messages' as const, ...streamed, extra: webSearchTool },
  { priced: claudeSearched, front: 'chat' as const, ...whole },
  { priced: openaiSearched, front: 'responses' as const, ...whole, extra: { tools: [{ type: 'web_search' }] } },
  { priced: openaiSearched, front: 'responses' as const, ...streamed, extra: { tools: [{ type: 'web_search' }] } },
  ...(['chat', 'messages', 'responses', 'gemini'] as const).flatMap((front) => [
    { priced: sonarPerCall, front, ...whole },
    { priced: sonarPerCall, front, ...streamed },
  ]),
];

/**
 * A one-api database's ratios, as its console stores them (ModelRatio and CompletionRatio: one-api's own
 * numbers for these models), with GroupRatio's `matrix: 0.8`: these models keep one-api's formula, cached
 * tokens billed as prompt tokens, through the chat front.
 */
const oneApiRatios = {
  ModelRatio: JSON.stringify({ 'gpt-4o-mini': 0.075, 'claude-3-5-haiku-20241022': 0.5 }),
  CompletionRatio: JSON.stringify({ 'gpt-4o-mini': 4, 'claude-3-5-haiku-20241022': 5 }),
};
const oneApiCases = [
  { priced: { ...openaiCached, model: 'gpt-4o-mini' }, modelRatio: 0.075, completionRatio: 4 },
  { priced: { ...claudeCached, model: 'claude-3-5-haiku-20241022' }, modelRatio: 0.5, completionRatio: 5 },
].flatMap((entry) =>
  [false, true].map((stream) => ({
    ...entry,
    stream,
    name: `one-api ratios: ${entry.priced.model} · chat front · ${stream ? 'streamed' : 'whole'}`,
  })),
);

/**
 * Streams broken off after text but before the final usage: Claude's message_start reported the whole input
 * and one output token, Gemini's first event the prompt only. What was written is charged: completion =
 * max(reported, the written text counted).
 */
const brokenBeforeUsage = [
  { priced: claudeCached, front: 'messages' as const, written: answerPieces.join('') },
  { priced: claudeCached, front: 'chat' as const, written: answerPieces.join('') },
  { priced: geminiCachedOver200K, front: 'gemini' as const, written: answerPieces[0]! },
].map((entry) => ({
  ...entry,
  name: `broken off before the final usage: ${entry.priced.model} · ${entry.front} front`,
}));

/** Each front, whole, streamed, and streamed but broken off right after the final usage. */
const cells: { front: Front; stream: boolean; ending: Ending }[] = (
  ['chat', 'messages', 'responses', 'gemini'] as const
).flatMap((front) => [
  { front, stream: false, ending: 'done' },
  { front, stream: true, ending: 'done' },
  { front, stream: true, ending: 'cut' },
]);

/** OpenAI's models take the Responses front natively: an incomplete answer there, instead of a break-off. */
const openaiCells = cells.flatMap((cell) =>
  cell.front !== 'responses' || cell.ending !== 'cut'
    ? [cell]
    : [
        { front: cell.front, stream: false, ending: 'incomplete' as const },
        { front: cell.front, stream: true, ending: 'incomplete' as const },
      ],
);

const modeOf = (cell: { stream: boolean; ending: Ending }) =>
  `${cell.stream ? 'streamed' : 'whole'}${cell.ending === 'done' ? '' : `, ${cell.ending}`}`;

const matrix = [
  ...openaiCells.map((cell) => ({ priced: openaiCached, ...cell })),
  ...[claudeCached, geminiCachedOver200K, deepseekHit].flatMap((priced) => cells.map((cell) => ({ priced, ...cell }))),
  ...specials,
].map((entry) => ({ ...entry, name: `${entry.priced.label} · ${entry.front} front · ${modeOf(entry)}` }));

type Cell = { front: Front; stream: boolean; ending: Ending; extra?: Record<string, unknown> };

/** Runs one case through one front: the upstream plays it under an id made of the test's name. */
function chargeOfCase(gateway: MatrixGateway, priced: PricedCase, cell: Cell, name: string) {
  const caseName = name.replace(/\W+/g, '-');
  gateway.vendors.define(caseName, priced.usages);
  return chargeOf(gateway, { model: priced.model, caseName, ...cell });
}

/** Runs one case through one front and checks its books against the list price, to the unit. */
async function expectPriced(gateway: MatrixGateway, priced: PricedCase, cell: Cell, name: string): Promise<void> {
  const charge = await chargeOfCase(gateway, priced, cell, name);
  const [early, late] = [priced.lines(charge.startedAt), priced.lines(charge.endedAt)];
  const expected = expectedQuota(early, matrixGroupRatio);
  // Only a call that crosses DeepSeek's 16:30 or 00:30 UTC may take either list.
  const quota = charge.quota === expectedQuota(late, matrixGroupRatio) ? charge.quota : expected;
  expectBooked(charge, quota);
  expect(charge.promptTokens, 'the log’s prompt tokens').toBe(priced.promptTokens);
  expect(charge.completionTokens, 'the log’s completion tokens').toBe(priced.completionTokens);
  const lines = quota === expected ? early : late;
  const items = [...Object.entries(lines.tokens), ...Object.entries(lines.units ?? {})].map(([item, [count]]) => ({
    item,
    count,
  }));
  expect(charge.receipt.lines.map(({ item, count }) => ({ item, count }))).toEqual(items);
  expect(charge.receipt.group_ratio).toBe(Number(matrixGroupRatio));
  expect(charge.receipt.tier).toBe(priced.tier ?? null);
}

describe.each(await availableEngines())('prices as vendors bill them, on $label', (engine) => {
  const gateway = startedForSuite(async () => {
    const started = await startMatrixGateway(engine, {
      openai: ['gpt-4.1', 'sonar', 'gpt-4o-mini'],
      anthropic: ['claude-sonnet-4-5', 'claude-3-5-haiku-20241022'],
      gemini: ['gemini-2.5-pro'],
      deepseek: ['deepseek-chat'],
    });
    const root = await started.server.rootClient();
    const price = Object.fromEntries(
      Object.entries(prices.sonarLowContext).map(([key, value]) => [key, Number(value)]),
    );
    const saved = await root.put('/api/price/', { model: 'sonar', price, note: 'Perplexity, low search context' });
    expect(saved.body.success).toBe(true);
    await setOptions(root, oneApiRatios);
    return started;
  });

  for (const { priced, name, ...cell } of matrix)
    test(name, async () => {
      await expectPriced(gateway, priced, cell, name);
    });

  for (const { priced, modelRatio, completionRatio, name, stream } of oneApiCases)
    test(name, async () => {
      const charge = await chargeOfCase(gateway, priced, { front: 'chat', ending: 'done', stream }, name);
      // one-api's postConsumeQuota, in its floating-point order.
      const ratio = modelRatio * Number(matrixGroupRatio);
      const quota = Math.ceil((priced.promptTokens + priced.completionTokens * completionRatio) * ratio);
      expectBooked(charge, quota);
      expect([charge.promptTokens, charge.completionTokens]).toEqual([priced.promptTokens, priced.completionTokens]);
      expect(charge.receipt.source).toBe('ratio');
    });

  for (const { priced, front, written, name } of brokenBeforeUsage)
    test(name, async () => {
      const charge = await chargeOfCase(gateway, priced, { front, ending: 'cut-early', stream: true }, name);
      const counted = countText(written, priced.model);
      const reported = priced.model.startsWith('claude') ? 1 : 0;
      const output = Math.max(reported, counted);
      const lines = priced.lines(charge.startedAt);
      const [, outputPrice] = lines.tokens.output!;
      expectBooked(
        charge,
        expectedQuota({ ...lines, tokens: { ...lines.tokens, output: t(output, outputPrice) } }, matrixGroupRatio),
      );
      expect([charge.promptTokens, charge.completionTokens]).toEqual([priced.promptTokens, output]);
    });
});
