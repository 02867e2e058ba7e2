import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { receiptOf, type Receipt } from '../../lib/receipt';
import { statusStore } from '../../stores/status.store';
import { ratioImageReceipt } from '../../test/receipts';
import { renderPage } from '../../test/render';
import { ReceiptPopover } from './receipt-popover';

const receipt: Receipt = {
  model: 'claude-sonnet-4-5',
  source: 'catalogue',
  reference: '@pydantic/genai-prices 0.1.8: anthropic/claude-sonnet-4-5',
  group_ratio: 1.5,
  group_price: false,
  tier: 200_000,
  prompt_tokens: 210_000,
  quota_per_unit: 500_000,
  lines: [
    { item: 'input', count: 200_000, unit_price: 6, unit: 'usd_per_mtok', quota: 900_000 },
    { item: 'cache_read', count: 10_000, unit_price: 0.6, unit: 'usd_per_mtok', quota: 4500 },
    { item: 'output', count: 1000, unit_price: 22.5, unit: 'usd_per_mtok', quota: 16_875 },
    { item: 'web_search', count: 2, unit_price: 0.01, unit: 'usd_per_unit', quota: 15_000, estimated: true },
  ],
  quota: 936_375,
  settlement: { reserved: 900_000, refunded: 0, charged_on_top: 36_375 },
};

const open = async () => {
  fireEvent.click(screen.getByRole('button', { name: '936375，查看计费明细' }));
  return within(await screen.findByTestId('receipt'));
};

describe('the receipt popover', () => {
  afterEach(() => act(() => statusStore.set({})));

  it('shows each line in words, the total, the tier, the group ratio and the settlement', async () => {
    statusStore.set({ display_in_currency: false, quota_per_unit: 500_000 });
    renderPage(<ReceiptPopover receipt={receipt} text="936375" />);
    const details = await open();
    const lines = details.getAllByTestId('receipt-line').map((line) => line.textContent);
    expect(lines).toEqual([
      '输入 tokens200000$6 / 1M tokens900000',
      '缓存读取 tokens10000$0.6 / 1M tokens4500',
      '输出 tokens1000$22.5 / 1M tokens16875',
      '网络搜索（次）约 2（估算）$0.01 / 个15000',
    ]);
    expect(details.getByTestId('receipt-total-quota')).toHaveTextContent('936375');
    expect(details.getByText('分组倍率 1.5，已计入每一项')).toBeInTheDocument();
    expect(details.getByText('提示 210000 tokens，超过 200000，整个请求按该上下文档位计费')).toBeInTheDocument();
    expect(details.getByText(`价格来源：内置价目表（${receipt.reference}）`)).toBeInTheDocument();
    expect(details.getByTestId('receipt-settlement')).toHaveTextContent('调用前预扣 900000，结算后补扣 36375');
    expect(details.queryByText('金额')).toBeNull();
  });

  it('shows a per-image price by ratio in quota, not in dollars', async () => {
    statusStore.set({ display_in_currency: false, quota_per_unit: 500_000 });
    const image = receiptOf(JSON.stringify({ receipt: ratioImageReceipt }))!;
    renderPage(<ReceiptPopover receipt={image} text="120000" />);
    fireEvent.click(screen.getByRole('button', { name: '120000，查看计费明细' }));
    const details = within(await screen.findByTestId('receipt'));
    expect(details.getAllByTestId('receipt-line').map((line) => line.textContent)).toEqual([
      '图片（张）240000 额度 / 个120000',
    ]);
  });

  it('says when the balance capped the output, with the cap', async () => {
    statusStore.set({ display_in_currency: false, quota_per_unit: 500_000 });
    const { settlement: _settlement, ...stored } = receipt;
    const capped = receiptOf(
      JSON.stringify({
        receipt: {
          ...stored,
          reserved: 900_000,
          refunded: 0,
          charged_on_top: 36_375,
          capped_by_balance: true,
          output_cap: 1000,
        },
      }),
    )!;
    renderPage(<ReceiptPopover receipt={capped} text="936375" />);
    const details = await open();
    expect(details.getByTestId('receipt-capped')).toHaveTextContent(
      '余额不足以支付最长输出：输出上限降为余额可支付的 1000 tokens',
    );
  });

  it('says nothing of a cap when the balance set none', async () => {
    statusStore.set({ display_in_currency: false, quota_per_unit: 500_000 });
    renderPage(<ReceiptPopover receipt={receipt} text="936375" />);
    expect((await open()).queryByTestId('receipt-capped')).toBeNull();
  });

  it('adds each amount in money when the quota shows as currency', async () => {
    statusStore.set({ display_in_currency: true, quota_per_unit: 500_000 });
    renderPage(<ReceiptPopover receipt={receipt} text="936375" />);
    const details = await open();
    expect(details.getByText('金额')).toBeInTheDocument();
    expect(details.getAllByTestId('receipt-line')[0]).toHaveTextContent('$1.80');
    expect(details.getByTestId('receipt-total')).toHaveTextContent('$1.87');
    expect(details.getByTestId('receipt-settlement')).toHaveTextContent(
      '调用前预扣 900000（$1.80），结算后补扣 36375（$0.0727）',
    );
  });
});
