import { formatMoney, renderQuota, type QuotaDisplayOptions } from '../../lib/quota';

export type BalanceDisplay = { supported: true; text: string } | { supported: false };

/**
 * How a channel's balance is shown (spec section 9): types 1 and 8 in dollars (formatMoney's digits); 4, 12 and 44
 * in yuan; 5 in yuan after dividing by 10000; 10 and 13 through the quota formatter; other types unsupported.
 */
export function renderChannelBalance(type: number, balance: number, quota: QuotaDisplayOptions): BalanceDisplay {
  switch (type) {
    case 1:
    case 8:
      return { supported: true, text: formatMoney(balance) };
    case 4:
    case 12:
    case 44:
      return { supported: true, text: formatMoney(balance, '¥') };
    case 5:
      return { supported: true, text: formatMoney(balance / 10000, '¥') };
    case 10:
    case 13:
      return { supported: true, text: renderQuota(balance, quota) };
    default:
      return { supported: false };
  }
}
