import type { ChannelRow } from '../../../db/tables.js';
import { fetchBalanceWithBearer, pick, toAmount, type BalanceReader } from './balance-reader.js';

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/**
 * OpenAI (1) and Custom (8): the legacy dashboard endpoints. Remaining = hard limit − usage this month
 * (`total_usage` is in cents); without a payment method the usage window is the last 100 days.
 */
export const openAIBalance = {
  types: [1, 8],
  async read(channel: ChannelRow) {
    const base = channel.type === 1 ? 'https://api.openai.com' : null;
    const subscription = await fetchBalanceWithBearer(channel, base, '/v1/dashboard/billing/subscription');
    const hardLimit = toAmount(pick(subscription, 'hard_limit_usd'), 'hard_limit_usd');
    const now = new Date();
    const start = pick(subscription, 'has_payment_method')
      ? `${isoDate(now).slice(0, 7)}-01`
      : isoDate(new Date(now.getTime() - 100 * 24 * 3600 * 1000));
    const query = `?start_date=${start}&end_date=${isoDate(now)}`;
    const usage = await fetchBalanceWithBearer(channel, base, `/v1/dashboard/billing/usage${query}`);
    return hardLimit - toAmount(pick(usage, 'total_usage'), 'total_usage') / 100;
  },
} satisfies BalanceReader;
