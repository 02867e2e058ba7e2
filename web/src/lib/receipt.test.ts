import { describe, expect, it } from 'vitest';
import { ratioImageReceipt as ratioImage } from '../test/receipts';
import { receiptOf } from './receipt';

const stored = {
  model: 'gpt-4o',
  source: 'catalogue',
  reference: '@pydantic/genai-prices 0.1.8: openai/gpt-4o',
  group_ratio: 1.5,
  group_price: false,
  tier: null,
  prompt_tokens: 12,
  quota_per_unit: 500000,
  lines: [
    { item: 'input', count: 12, unit_price: 2.5, unit: 'usd_per_mtok', quota: 23 },
    { item: 'output', count: 5, unit_price: 10, unit: 'usd_per_mtok', quota: 37 },
  ],
  quota: 60,
  reserved: 951,
  refunded: 891,
  charged_on_top: 0,
};

describe('receiptOf', () => {
  it("reads the receipt a consume log's other field carries", () => {
    const { reserved, refunded, charged_on_top, ...rest } = stored;
    expect(receiptOf(JSON.stringify({ receipt: stored }))).toEqual({
      ...rest,
      settlement: { reserved, refunded, charged_on_top },
    });
  });

  it('reads the receipt of images priced per image by ratio, in quota', () => {
    const receipt = receiptOf(JSON.stringify({ receipt: ratioImage }));
    expect(receipt?.lines).toEqual(ratioImage.lines);
    expect(receipt?.settlement).toEqual({ reserved: 120000, refunded: 0, charged_on_top: 0 });
  });

  it('reads a receipt without a settlement', () => {
    const { reserved: _r, refunded: _f, charged_on_top: _c, ...unsettled } = stored;
    expect(receiptOf(JSON.stringify({ receipt: unsettled }))?.settlement).toBeNull();
  });

  it('answers null for logs without one, and for anything unreadable', () => {
    for (const other of ['', null, undefined, 'not json', '{}', '{"receipt":null}', '[]', 'null'])
      expect(receiptOf(other), String(other)).toBeNull();
    const badLine = {
      ...stored,
      lines: [{ item: 'input', count: '12', unit_price: 1, unit: 'usd_per_mtok', quota: 1 }],
    };
    expect(receiptOf(JSON.stringify({ receipt: badLine }))).toBeNull();
    expect(receiptOf(JSON.stringify({ receipt: { ...stored, quota: 'x' } }))).toBeNull();
    expect(
      receiptOf(JSON.stringify({ receipt: { ...stored, lines: [{ ...stored.lines[0], unit: 'euro' }] } })),
    ).toBeNull();
  });
});
