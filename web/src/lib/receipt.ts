import type { ReceiptLine, ReceiptUnit, StoredReceipt } from '@modelgate/wire';

export type { ReceiptLine };

/**
 * What a call was charged, line by line, as the server stores it in a consume log's `other` (decision 0026):
 * the lines add up to `quota`, the charge.
 */
export interface Receipt extends Omit<
  StoredReceipt,
  'reserved' | 'refunded' | 'charged_on_top' | 'capped_by_balance' | 'output_cap'
> {
  /** The settlement, when the call held quota first: the hold, then what came back or was charged on top. */
  settlement: { reserved: number; refunded: number; charged_on_top: number } | null;
  /** The output tokens the upstream was capped at when the balance could not pay the call's worst case. */
  cappedByBalance?: number;
}

/**
 * Every unit wire names: the compiler fails here when one is added there. Checked by hand rather than with a
 * schema, so that the log page does not load zod (some 30 KiB gzipped) to read a receipt.
 */
const UNITS: Record<ReceiptUnit, true> = {
  usd_per_mtok: true,
  usd_per_unit: true,
  quota_per_token: true,
  quota_per_unit: true,
  usd_per_1000: true,
};

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function isLine(value: unknown): value is ReceiptLine {
  if (!value || typeof value !== 'object') return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.item === 'string' &&
    isNumber(line.count) &&
    isNumber(line.unit_price) &&
    typeof line.unit === 'string' &&
    Object.hasOwn(UNITS, line.unit) &&
    isNumber(line.quota) &&
    (line.estimated === undefined || line.estimated === true)
  );
}

/** The receipt in a log's `other` text, or null when it has none (older logs, other log types) or it is unreadable. */
export function receiptOf(other: string | null | undefined): Receipt | null {
  if (!other) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(other);
  } catch {
    return null;
  }
  const receipt = (parsed as { receipt?: unknown } | null)?.receipt;
  if (!receipt || typeof receipt !== 'object') return null;
  const fields = receipt as Record<string, unknown>;
  const { group_ratio, prompt_tokens, quota_per_unit, quota, reserved, refunded, charged_on_top, tier, lines } = fields;
  if (![group_ratio, prompt_tokens, quota_per_unit, quota].every(isNumber)) return null;
  if (!Array.isArray(lines) || !lines.every(isLine)) return null;
  if (tier !== null && !isNumber(tier)) return null;
  const cappedByBalance =
    fields.capped_by_balance === true && isNumber(fields.output_cap) ? fields.output_cap : undefined;
  return {
    ...(cappedByBalance === undefined ? {} : { cappedByBalance }),
    model: String(fields.model ?? ''),
    source: String(fields.source ?? ''),
    reference: String(fields.reference ?? ''),
    group_ratio: group_ratio as number,
    group_price: fields.group_price === true,
    tier,
    prompt_tokens: prompt_tokens as number,
    quota_per_unit: quota_per_unit as number,
    lines,
    quota: quota as number,
    settlement:
      isNumber(reserved) && isNumber(refunded) && isNumber(charged_on_top)
        ? { reserved, refunded, charged_on_top }
        : null,
  };
}
