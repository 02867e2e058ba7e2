import type { ReceiptUnit } from '@modelgate/wire';
import { settleReceipt, type Receipt, type ReceiptLine } from '../pricing/price-call.js';

/**
 * A consume log's receipt as stored in `other` (issue 28): its inputs in a positional array, the rendered receipt
 * rebuilt when the log is read. The rendered form repeated every key on every row (about 390 bytes a call,
 * half of what a consume log costs the database); this one is about a third of that and cheaper to serialise.
 *
 *   {"r":[reserved, output cap or null, source, reference, group ratio, group price (0/1), tier, prompt tokens,
 *         quota per unit, model (null: the log's model_name), [[item, count, unit price, unit code, quota(, 1 when
 *         estimated)], …]]}
 *
 * What is left out follows from the log's row or the rest: the charge is the row's quota (settle() writes the
 * receipt's quota there), refunded and charged on top are the hold against it. Logs written before keep their
 * rendered `{"receipt": …}` text, which is read as it is.
 */
const unitCodes: Record<ReceiptUnit, string> = {
  usd_per_mtok: 't',
  usd_per_unit: 'u',
  quota_per_token: 'q',
  quota_per_unit: 'Q',
  usd_per_1000: 'k',
};
const unitsByCode = new Map(Object.entries(unitCodes).map(([unit, code]) => [code, unit as ReceiptUnit]));

type PackedLine = [item: string, count: number, unitPrice: number, unit: string, quota: number, estimated?: 1];
type Packed = [
  reserved: number,
  outputCap: number | null,
  source: string,
  reference: string,
  groupRatio: number,
  groupPrice: 0 | 1,
  tier: number | null,
  promptTokens: number,
  quotaPerUnit: number,
  model: string | null,
  lines: PackedLine[],
];

const packLine = (line: ReceiptLine): PackedLine =>
  line.estimated
    ? [line.item, line.count, line.unit_price, unitCodes[line.unit], line.quota, 1]
    : [line.item, line.count, line.unit_price, unitCodes[line.unit], line.quota];

/** The `other` text of a consume log: the receipt settled against `reserved`, and the output cap if any. */
export function packReceipt(receipt: Receipt, reserved: number, outputCap: number | undefined, modelName = ''): string {
  const packed: Packed = [
    reserved,
    outputCap ?? null,
    receipt.source,
    receipt.reference,
    receipt.group_ratio,
    receipt.group_price ? 1 : 0,
    receipt.tier,
    receipt.prompt_tokens,
    receipt.quota_per_unit,
    receipt.model === modelName ? null : receipt.model,
    receipt.lines.map(packLine),
  ];
  return JSON.stringify({ r: packed });
}

/**
 * The rendered `{"receipt": …}` text of a log's `other`, as settle() wrote it before issue 28: a packed receipt
 * rebuilt from its inputs and the row, any other text (an older log's, none) as it is.
 */
export function receiptText(other: string | null, row: { model_name: string | null; quota: number | bigint }): string {
  if (!other?.startsWith('{"r":')) return other ?? '';
  const [
    reserved,
    outputCap,
    source,
    reference,
    groupRatio,
    groupPrice,
    tier,
    promptTokens,
    quotaPerUnit,
    model,
    lines,
  ] = (JSON.parse(other) as { r: Packed }).r;
  const receipt: Receipt = {
    model: model ?? row.model_name ?? '',
    source: source as Receipt['source'],
    reference,
    group_ratio: groupRatio,
    group_price: groupPrice === 1,
    tier,
    prompt_tokens: promptTokens,
    quota_per_unit: quotaPerUnit,
    lines: lines.map(([item, count, unitPrice, unit, quota, estimated]) => {
      const line: ReceiptLine = {
        item: item as ReceiptLine['item'],
        count,
        unit_price: unitPrice,
        unit: unitsByCode.get(unit) ?? (unit as ReceiptUnit),
        quota,
      };
      if (estimated === 1) line.estimated = true;
      return line;
    }),
    quota: Number(row.quota),
  };
  return JSON.stringify({ receipt: settleReceipt(receipt, reserved, outputCap ?? undefined) });
}
