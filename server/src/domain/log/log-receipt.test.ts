import { describe, expect, test } from 'vitest';
import { availableEngines } from '../../../test/engines.js';
import { startTestServer } from '../../../test/test-server.js';
import { createTestUser } from '../../../test/test-users.js';
import type { NewLog } from '../../db/tables.js';
import type { ResolvedPrice } from '../pricing/price.js';
import { priceCall, settleReceipt, type Receipt } from '../pricing/price-call.js';
import { packReceipt, receiptText } from './log-receipt.js';
import { insertLogRows, type LogRow } from './log.writer.js';

const listPrice: ResolvedPrice = {
  model: 'claude-sonnet-4-5',
  source: 'catalogue',
  groupPrice: false,
  reference: 'models.dev 1.2.3: anthropic/claude-sonnet-4-5',
  price: {
    kind: 'list',
    list: {
      input: 3,
      output: 15,
      cache_read: 0.3,
      cache_write: 3.75,
      tiers: [{ above: 200_000, input: 6, output: 22.5 }],
    },
  },
};
const ratioPrice: ResolvedPrice = {
  model: 'gpt-4o-mini',
  source: 'ratio',
  groupPrice: false,
  reference: 'ModelRatio',
  price: { kind: 'ratio', ratio: { model_ratio: 0.075, completion_ratio: 4, web_searches_per_1000: 10 } },
};

/** What settle() wrote into `other` before issue 28: the receipt rendered in full. */
const rendered = (receipt: Receipt, reserved: number, outputCap?: number) =>
  JSON.stringify({ receipt: settleReceipt(receipt, reserved, outputCap) });

const estimated = (receipt: Receipt): Receipt => ({
  ...receipt,
  lines: receipt.lines.map((line) => (line.item === 'input' ? { ...line, estimated: true as const } : line)),
});

const cases: Array<[name: string, receipt: Receipt, reserved: number, outputCap?: number, modelName?: string]> = [
  [
    'a ratio price, refunded',
    priceCall({ input: 9, output: 12, web_searches: 2 }, ratioPrice, 0.8, 500_000).receipt,
    900,
  ],
  [
    'a list price with cache classes, charged on top',
    priceCall({ input: 1000, cache_read: 2000, cache_write: 300, output: 400 }, listPrice, 1, 500_000).receipt,
    10,
  ],
  [
    'a context tier, a group price, capped by the balance',
    priceCall({ input: 250_000, output: 40 }, { ...listPrice, groupPrice: true }, 1.5, 500_000).receipt,
    800_000,
    1234,
  ],
  ['an estimated line', estimated(priceCall({ input: 7, output: 0 }, listPrice, 1, 500_000).receipt), 50],
  // The log's model_name is the name asked for; the receipt's the one priced (a mapped model).
  ['a log named otherwise', priceCall({ input: 3, output: 4 }, ratioPrice, 1, 500_000).receipt, 40, undefined, 'mini'],
  [
    'no lines, a quota of its own',
    { ...priceCall({ input: 0, output: 0 }, ratioPrice, 1, 500_000).receipt, lines: [], quota: 17, prompt_tokens: 0 },
    17,
  ],
];

describe('a consume log stores its receipt packed and reads it rendered', () => {
  test.each(cases)('%s', (_name, receipt, reserved, outputCap, modelName = receipt.model) => {
    const other = packReceipt(receipt, reserved, outputCap, modelName);
    const row = { model_name: modelName, quota: receipt.quota };
    expect(receiptText(other, row)).toBe(rendered(receipt, reserved, outputCap));
    expect(other.length).toBeLessThan(rendered(receipt, reserved, outputCap).length * 0.6);
  });

  test('a log written before keeps its text, one without a receipt reads empty', () => {
    const [, receipt, reserved] = cases[1]!;
    const old = rendered(receipt, reserved);
    expect(receiptText(old, { model_name: receipt.model, quota: receipt.quota })).toBe(old);
    expect(receiptText(null, { model_name: '', quota: 0 })).toBe('');
    expect(receiptText('', { model_name: '', quota: 0 })).toBe('');
  });
});

describe.each(await availableEngines())('the log API renders packed and old receipts alike on $label', (engine) => {
  test('a packed receipt and one written before it read the same through /api/log and /api/log/self', async () => {
    const server = await startTestServer({ engine });
    try {
      const admin = await createTestUser(server, { role: 10 });
      const user = await createTestUser(server);
      const [, receipt, reserved] = cases[1]!;
      const log = (other: string, createdAt: number): NewLog => ({
        user_id: user.id,
        username: user.username,
        created_at: createdAt,
        type: 2,
        content: 'call',
        token_name: 'default',
        model_name: receipt.model,
        quota: receipt.quota,
        prompt_tokens: receipt.prompt_tokens,
        completion_tokens: 400,
        channel_id: 1,
        request_id: 'r',
        elapsed_time: 900,
        is_stream: 0,
        system_prompt_reset: 0,
        other,
      });
      const { db, dialect } = server.context.logDatabase;
      await insertLogRows(db, dialect, [
        log(rendered(receipt, reserved), 1_700_000_000),
        log(packReceipt(receipt, reserved, undefined, receipt.model), 1_700_000_001),
      ] as LogRow[]);
      const expected = rendered(receipt, reserved);
      for (const [client, path] of [
        [admin.client, '/api/log/'],
        [user.client, '/api/log/self/'],
        [user.client, '/api/log/self/search?keyword=call'],
      ] as const) {
        const response = await client.get(path);
        expect(response.body.success, path).toBe(true);
        expect(
          response.body.data.map((row: { other: string }) => row.other),
          path,
        ).toEqual([expected, expected]);
      }
    } finally {
      await server.close();
    }
  });
});
