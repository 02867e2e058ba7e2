import type { ChannelRow } from '../../../db/tables.js';
import {
  balanceQueryFailed,
  balanceUrl,
  fetchBalanceJson,
  pick,
  toAmount,
  type BalanceReader,
} from './balance-reader.js';

/** AIProxy (10): `Api-Key` header, an envelope with `success`, points in `data.totalPoints`. */
export const aiProxyBalance = {
  types: [10],
  async read(channel: ChannelRow) {
    const url = balanceUrl(channel, 'https://aiproxy.io', '/api/report/getUserOverview');
    const answer = await fetchBalanceJson(url, { 'api-key': channel.key });
    if (pick(answer, 'success') !== true) {
      const detail = `code: ${String(pick(answer, 'error_code') ?? '')}, message: ${String(pick(answer, 'message') ?? '')}`;
      throw balanceQueryFailed(detail, detail);
    }
    return toAmount(pick(answer, 'data', 'totalPoints'), 'data.totalPoints');
  },
} satisfies BalanceReader;
