import type { EffectivePrice, PriceImportPreview } from '@modelgate/wire';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { signIn } from '../../../stores/user.store';
import { renderPage } from '../../../test/render';
import PriceSetting from './price-setting';

const api = vi.hoisted(() => ({
  fetchEffectivePrices: vi.fn(),
  saveModelPrice: vi.fn(async () => null),
  deleteModelPrice: vi.fn(async () => null),
  previewPriceImport: vi.fn(),
  applyPriceImport: vi.fn(),
}));
vi.mock('../../../api/price', () => api);
const updateOption = vi.hoisted(() => vi.fn(async () => null));
vi.mock('../../../api/option', () => ({
  fetchOptions: vi.fn(async () => ({ DefaultModelPrice: '{}' })),
  updateOption,
}));
vi.mock('../../../api/channel', () => ({ fetchGroups: vi.fn(async () => ['default', 'vip']) }));

const prices: EffectivePrice[] = [
  {
    model: 'claude-sonnet-4-5',
    channel_type: 14,
    group: '',
    source: 'catalogue',
    price: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75, tiers: [{ above: 200_000, input: 6 }] },
    ratio: null,
    reference: '@pydantic/genai-prices 0.1.8: anthropic/claude-sonnet-4-5',
    note: '',
  },
  {
    model: 'gpt-4o',
    channel_type: null,
    group: 'vip',
    source: 'admin',
    price: { input: 1, output: 4, per_call: 0.01 },
    ratio: null,
    reference: '',
    note: 'our contract',
  },
  {
    model: 'old-model',
    channel_type: 1,
    group: '',
    source: 'ratio',
    price: null,
    ratio: { model_ratio: 2.5, completion_ratio: 4 },
    reference: '',
    note: '',
  },
];

const rowOf = (model: string) => screen.getByText(model, { selector: 'strong, span' }).closest('tr') as HTMLElement;

describe('the price settings', () => {
  it('lists each effective price with its source, prices per 1M tokens, unit prices, tiers and reference', async () => {
    api.fetchEffectivePrices.mockResolvedValue(prices);
    renderPage(<PriceSetting />);
    const claude = within(await waitFor(() => rowOf('claude-sonnet-4-5')));
    expect(claude.getByText('价目表')).toBeInTheDocument();
    expect(claude.getByText('缓存写入（5 分钟） $3.75')).toBeInTheDocument();
    expect(claude.getByText('> 200K：输入 $6')).toBeInTheDocument();
    expect(claude.getByText(prices[0]!.reference)).toBeInTheDocument();
    const gpt = within(rowOf('gpt-4o'));
    expect(gpt.getByText('vip')).toBeInTheDocument();
    expect(gpt.getByText('每次调用 $0.01')).toBeInTheDocument();
    expect(gpt.getByText('our contract')).toBeInTheDocument();
    // A ratio in dollars at 500,000 quota per dollar: 2.5 → $5 input, × 4 → $20 output.
    const old = within(rowOf('old-model'));
    expect(old.getByText('输入 $5')).toBeInTheDocument();
    expect(old.getByText('输出 $20')).toBeInTheDocument();
    // Per token, per call, tiers: a price without one says so in its column.
    expect(old.getAllByText('—')).toHaveLength(2);
    expect(old.getByText('模型倍率 2.5，补全倍率 4')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('搜索模型名称'), { target: { value: 'GPT' } });
    await waitFor(() => expect(screen.queryByText('claude-sonnet-4-5', { selector: 'strong, span' })).toBeNull());
  });

  it('deletes an admin price under its key after confirmation', async () => {
    api.fetchEffectivePrices.mockResolvedValue(prices);
    renderPage(<PriceSetting />);
    const gpt = within(await waitFor(() => rowOf('gpt-4o')));
    expect(within(rowOf('claude-sonnet-4-5')).queryByRole('button', { name: '删除' })).toBeNull();
    fireEvent.click(gpt.getByRole('button', { name: /删\s?除/ }));
    const confirm = await screen.findByText(/删除 gpt-4o 的管理员价格/);
    fireEvent.click(within(confirm.closest('.ant-popover') as HTMLElement).getByRole('button', { name: /确\s?定|OK/ }));
    await waitFor(() => expect(api.deleteModelPrice).toHaveBeenCalledWith('gpt-4o', 'vip'));
  });

  it('previews an uploaded models.dev file and imports the chosen changes', async () => {
    signIn({ id: 1, username: 'root', display_name: '', role: 100, status: 1 });
    api.fetchEffectivePrices.mockResolvedValue(prices);
    const preview: PriceImportPreview = {
      changes: [
        {
          model: 'claude-sonnet-4-5',
          provider: 'anthropic',
          served: true,
          before: prices[0]!.price,
          before_source: 'catalogue',
          after: { input: 2.5, output: 15, cache_read: 0.3, cache_write_1h: 6 },
          classes: [
            { class: 'input', above: null, before: 3, after: 2.5, change: 'changed' },
            { class: 'cache_write_1h', above: null, before: 6, after: 6, change: 'kept' },
          ],
        },
        {
          model: 'claude-new-7',
          provider: 'anthropic',
          served: false,
          before: null,
          before_source: 'missing',
          after: { input: 2 },
          classes: [{ class: 'input', above: null, before: null, after: 2, change: 'added' }],
        },
      ],
      unchanged: 4,
      conflicts: [
        {
          model: 'shared-model',
          prices: [
            { provider: 'anthropic', price: { input: 1 } },
            { provider: 'reseller', price: { input: 1.2 } },
          ],
        },
      ],
      skipped: [{ model: 'odd-model', provider: 'anthropic', reason: 'reasoning priced apart from output' }],
      applied: 0,
    };
    api.previewPriceImport.mockResolvedValue(preview);
    api.applyPriceImport.mockResolvedValue({ ...preview, applied: 1 });
    const { container } = renderPage(<PriceSetting />);
    await waitFor(() => rowOf('gpt-4o'));
    fireEvent.click(screen.getByRole('button', { name: '导入 models.dev 价格' }));
    const dialog = within(await screen.findByRole('dialog'));
    const file = { anthropic: { models: {} }, openai: { models: {} }, note: 'x' };
    const upload = new File([JSON.stringify(file)], 'api.json', { type: 'application/json' });
    // jsdom's File has no text(), which browsers' has.
    Object.defineProperty(upload, 'text', { value: async () => JSON.stringify(file) });
    const input = container.ownerDocument.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [upload] } });
    expect(await dialog.findByText('已读取 api.json：2 个供应商', {}, { timeout: 5000 })).toBeInTheDocument();
    fireEvent.click(dialog.getByRole('button', { name: '预览变更' }));
    expect(await dialog.findByText('变更（2）')).toBeInTheDocument();
    expect(api.previewPriceImport).toHaveBeenCalledWith({ data: file }, {});
    expect(dialog.getByText('4 个模型价格不变')).toBeInTheDocument();
    // A conflict names each side's price.
    expect(
      dialog.getAllByText(
        (_text, element) =>
          element?.tagName === 'SPAN' &&
          element.textContent ===
            'shared-model：anthropic（每百万 tokens：输入 $1） 对比 reseller（每百万 tokens：输入 $1.2）',
      ),
    ).not.toHaveLength(0);
    expect(dialog.getByText('reasoning priced apart from output')).toBeInTheDocument();
    const sonnetRow = dialog.getByText('claude-sonnet-4-5', { selector: 'strong' }).closest('tr') as HTMLElement;
    // Each class the import touches, and the 1-hour write the file lacks, kept.
    expect(within(sonnetRow).getByText('输入：$3 → $2.5')).toBeInTheDocument();
    expect(within(sonnetRow).getByText('缓存写入（1 小时）：文件未提供，保留 $6')).toBeInTheDocument();
    expect(
      within(sonnetRow).getByText('每百万 tokens：输入 $2.5，输出 $15，缓存读取 $0.3，缓存写入（1 小时） $6'),
    ).toBeInTheDocument();
    // Only served models are pre-selected.
    const newRow = dialog.getByText('claude-new-7', { selector: 'strong' }).closest('tr') as HTMLElement;
    expect(within(newRow).getByRole('checkbox')).not.toBeChecked();
    expect(within(sonnetRow).getByRole('checkbox')).toBeChecked();
    // The after-column fits: fixed columns, no sideways scroll.
    const table = sonnetRow.closest('.ant-table') as HTMLElement;
    expect(table.classList.contains('ant-table-layout-fixed')).toBe(true);
    expect(table.classList.contains('ant-table-scroll-horizontal')).toBe(false);
    fireEvent.click(dialog.getByRole('button', { name: '导入所选的 1 项' }));
    await waitFor(() =>
      expect(api.applyPriceImport).toHaveBeenCalledWith({ data: file }, { models: ['claude-sonnet-4-5'] }),
    );
  }, 120_000);

  it('saves the default price of unknown models', async () => {
    api.fetchEffectivePrices.mockResolvedValue([]);
    renderPage(<PriceSetting />);
    const card = within((await screen.findByText('未知模型的默认价格')).closest('.ant-card') as HTMLElement);
    expect(card.getByText('当前：拒绝调用没有价格的模型')).toBeInTheDocument();
    fireEvent.change(card.getAllByLabelText('输入')[0]!, { target: { value: '1' } });
    fireEvent.change(card.getAllByLabelText('输出')[0]!, { target: { value: '2' } });
    fireEvent.click(card.getByRole('button', { name: '保存默认价格' }));
    await waitFor(() => expect(updateOption).toHaveBeenCalledWith('DefaultModelPrice', '{"input":1,"output":2}'));
  }, 60_000);
});
