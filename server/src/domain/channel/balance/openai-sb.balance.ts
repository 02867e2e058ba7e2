import type { ChannelRow } from '../../../db/tables.js';
import { balanceQueryFailed, fetchBalanceWithBearer, pick, toAmount, type BalanceReader } from './balance-reader.js';

/** OpenAI-SB (5): the key goes in the query too; `data: null` means refused, with the reason in `msg`. */
export const openAISBBalance = {
  types: [5],
  async read(channel: ChannelRow) {
    const path = `/sb-api/user/status?api_key=${encodeURIComponent(channel.key)}`;
    const answer = await fetchBalanceWithBearer(channel, 'https://api.openai-sb.com', path);
    const data = pick(answer, 'data');
    if (typeof data !== 'object' || data === null) {
      const message = String(pick(answer, 'msg') ?? 'no data');
      throw balanceQueryFailed(message, message);
    }
    return toAmount(pick(data, 'credit'), 'data.credit');
  },
} satisfies BalanceReader;
