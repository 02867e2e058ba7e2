import type { ChannelRow } from '../../../db/tables.js';
import { balanceQueryFailed, fetchBalanceWithBearer, pick, toAmount, type BalanceReader } from './balance-reader.js';

/** SiliconFlow (44): `code` 20000 means success; the balance is a string in `data.totalBalance` (CNY). */
export const siliconFlowBalance = {
  types: [44],
  async read(channel: ChannelRow) {
    const answer = await fetchBalanceWithBearer(channel, 'https://api.siliconflow.cn', '/v1/user/info');
    const code = pick(answer, 'code');
    if (code !== 20000) {
      const detail = `code: ${String(code)}, message: ${String(pick(answer, 'message') ?? '')}`;
      throw balanceQueryFailed(detail, detail);
    }
    return toAmount(pick(answer, 'data', 'totalBalance'), 'data.totalBalance');
  },
} satisfies BalanceReader;
