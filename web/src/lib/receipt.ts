import { storedReceipt, type ReceiptLine, type StoredReceipt } from '@modelgate/wire';

export type { ReceiptLine };

/**
 * What a call was charged, line by line, as the server stores it in a consume log's `other` (decision 0026):
 * the lines add up to `quota`, the charge.
 */
export interface Receipt extends Omit<StoredReceipt, 'reserved' | 'refunded' | 'charged_on_top'> {
  /** The settlement, when the call held quota first: the hold, then what came back or was charged on top. */
  settlement: { reserved: number; refunded: number; charged_on_top: number } | null;
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
  const read = storedReceipt.safeParse((parsed as { receipt?: unknown } | null)?.receipt);
  if (!read.success) return null;
  const { reserved, refunded, charged_on_top, ...receipt } = read.data;
  return {
    ...receipt,
    settlement:
      reserved !== undefined && refunded !== undefined && charged_on_top !== undefined
        ? { reserved, refunded, charged_on_top }
        : null,
  };
}
