import type { ChannelRow } from '../../../db/tables.js';
import { fetchBalanceWithBearer, pick, toAmount, type BalanceReader } from './balance-reader.js';

/** OpenRouter (20): credits bought minus credits used, in USD. */
export const openRouterBalance = {
  types: [20],
  async read(channel: ChannelRow) {
    const answer = await fetchBalanceWithBearer(channel, 'https://openrouter.ai/api', '/v1/credits');
    const total = toAmount(pick(answer, 'data', 'total_credits'), 'data.total_credits');
    return total - toAmount(pick(answer, 'data', 'total_usage'), 'data.total_usage');
  },
} satisfies BalanceReader;
