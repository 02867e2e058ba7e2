import { describe, expect, it } from 'vitest';
import { renderChannelBalance } from './channel-balance';

const quota = { displayInCurrency: true, quotaPerUnit: 500000 };

describe('renderChannelBalance', () => {
  it('shows dollars for OpenAI and custom channels', () => {
    expect(renderChannelBalance(1, 12.345, quota)).toEqual({ supported: true, text: '$12.35' });
    expect(renderChannelBalance(8, 0, quota)).toEqual({ supported: true, text: '$0.00' });
  });
  it('shows yuan for CloseAI, API2GPT and SiliconFlow', () => {
    for (const type of [4, 12, 44])
      expect(renderChannelBalance(type, 3.5, quota)).toEqual({ supported: true, text: '¥3.50' });
  });
  it('divides OpenAI-SB balances by 10000', () => {
    expect(renderChannelBalance(5, 123456, quota)).toEqual({ supported: true, text: '¥12.35' });
  });
  it('uses the quota formatter for AI Proxy and AIGC2D', () => {
    expect(renderChannelBalance(10, 1_000_000, quota)).toEqual({ supported: true, text: '$2.00' });
    expect(renderChannelBalance(13, 25_000, { displayInCurrency: false, quotaPerUnit: 500000 })).toEqual({
      supported: true,
      text: '25.0k',
    });
  });
  it('reports other types as unsupported', () => {
    for (const type of [3, 14, 24, 36]) expect(renderChannelBalance(type, 5, quota).supported).toBe(false);
  });
});
