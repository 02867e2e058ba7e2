import type { ChannelRow } from '../../../db/tables.js';
import { balanceQueryFailed, fetchBalanceWithBearer, pick, toAmount, type BalanceReader } from './balance-reader.js';

/** DeepSeek (36): the CNY entry of `balance_infos` (amounts are strings). */
export const deepSeekBalance = {
  types: [36],
  async read(channel: ChannelRow) {
    const answer = await fetchBalanceWithBearer(channel, 'https://api.deepseek.com', '/user/balance');
    const infos = pick(answer, 'balance_infos');
    const yuan = Array.isArray(infos) ? infos.find((info) => pick(info, 'currency') === 'CNY') : undefined;
    if (!yuan) throw balanceQueryFailed('currency CNY not found', 'currency CNY not found');
    return toAmount(pick(yuan, 'total_balance'), 'total_balance');
  },
} satisfies BalanceReader;
