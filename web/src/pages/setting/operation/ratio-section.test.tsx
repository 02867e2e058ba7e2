import type { OptionPreview } from '@modelgate/wire';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../test/render';
import { RatioSection } from './ratio-section';

const api = vi.hoisted(() => ({
  builtInKey: (key: string) => `${key}#built_in`,
  fetchOptions: vi.fn(),
  updateOption: vi.fn(async () => null),
  previewOptions: vi.fn(),
}));
vi.mock('../../../api/option', () => api);

// As GET /api/option lists a fresh install: no stored ratio table, the built-in ones apart.
const freshInstall = {
  ModelRatio: '',
  'ModelRatio#built_in': JSON.stringify({ 'gpt-4o': 2.5, 'qwen-turbo': 0.4 }),
  CompletionRatio: '',
  'CompletionRatio#built_in': JSON.stringify({ 'gpt-4o': 4 }),
  GroupRatio: JSON.stringify({ default: 1, vip: 1, svip: 1 }),
  WebSearchPrice: '10',
};

const repricing: OptionPreview = {
  changes: [
    {
      model: 'gpt-4o',
      channel_type: 1,
      group: '',
      before: { source: 'catalogue', input: 2.5, output: 10 },
      after: { source: 'ratio', input: 5, output: 20 },
    },
  ],
};

const save = () => fireEvent.click(screen.getByRole('button', { name: '保存设置' }));

// Issue 29, point 4. Antd's dialog and tables are slow in jsdom on a busy machine.
describe('the ratio section', { timeout: 90_000 }, () => {
  it('shows the built-in tables apart, and a save of the section as loaded stores nothing', async () => {
    renderPage(<RatioSection options={freshInstall} />);
    const modelRatio = await screen.findByLabelText('模型倍率');
    expect((modelRatio as HTMLTextAreaElement).value).toBe('');
    expect(modelRatio.getAttribute('placeholder')).toBe('未设置：使用内置倍率表');
    // The group ratios are shown indented: the same table, not a change.
    await waitFor(() => expect((screen.getByLabelText('分组倍率') as HTMLTextAreaElement).value).toContain('\n'));
    save();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.previewOptions).not.toHaveBeenCalled();
    expect(api.updateOption).not.toHaveBeenCalled();
  });

  it('lists the models a save re-prices, before → after, and saves only once confirmed', async () => {
    api.previewOptions.mockResolvedValue(repricing);
    renderPage(<RatioSection options={freshInstall} />);
    const modelRatio = await screen.findByLabelText('模型倍率');
    fireEvent.change(modelRatio, { target: { value: '{"gpt-4o": 2.5}' } });
    save();
    const dialog = await screen.findByRole('dialog');
    expect(api.previewOptions).toHaveBeenCalledWith([['ModelRatio', '{"gpt-4o": 2.5}']]);
    expect(within(dialog).getByText('保存将改变 1 个模型的价格')).toBeTruthy();
    const row = within(dialog).getByText('gpt-4o (1)').closest('tr') as HTMLElement;
    expect(row.textContent).toContain('输入 $2.5，输出 $10');
    expect(row.textContent).toContain('输入 $5，输出 $20');
    fireEvent.click(within(dialog).getByRole('button', { name: '取 消' }));
    expect(api.updateOption).not.toHaveBeenCalled();

    save();
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: '仍然保存' }));
    await waitFor(() => expect(api.updateOption).toHaveBeenCalledWith('ModelRatio', '{"gpt-4o": 2.5}'));
    expect(api.updateOption).toHaveBeenCalledTimes(1);
  });

  it('saves at once when nothing is re-priced', async () => {
    api.updateOption.mockClear();
    api.previewOptions.mockResolvedValue({ changes: [] });
    renderPage(<RatioSection options={freshInstall} />);
    fireEvent.change(await screen.findByLabelText(/网络搜索价格/), { target: { value: '12' } });
    save();
    await waitFor(() => expect(api.updateOption).toHaveBeenCalledWith('WebSearchPrice', '12'));
  });
});
