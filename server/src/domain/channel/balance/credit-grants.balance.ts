import type { ChannelRow } from '../../../db/tables.js';
import { fetchBalanceWithBearer, pick, toAmount, type BalanceReader } from './balance-reader.js';

/** Resellers serving `/dashboard/billing/credit_grants`: default address and the field holding the balance. */
const resellers: Record<number, { base: string; field: string }> = {
  4: { base: 'https://api.closeai-proxy.xyz', field: 'total_available' }, // CloseAI
  12: { base: 'https://api.api2gpt.com', field: 'total_remaining' }, // API2GPT names it differently
  13: { base: 'https://api.aigc2d.com', field: 'total_available' }, // AIGC2D
};

/** CloseAI (4), API2GPT (12) and AIGC2D (13). */
export const creditGrantsBalance = {
  types: [4, 12, 13],
  async read(channel: ChannelRow) {
    const reseller = resellers[channel.type]!;
    const answer = await fetchBalanceWithBearer(channel, reseller.base, '/dashboard/billing/credit_grants');
    return toAmount(pick(answer, reseller.field), reseller.field);
  },
} satisfies BalanceReader;
