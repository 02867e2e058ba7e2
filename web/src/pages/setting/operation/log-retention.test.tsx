import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../test/render';
import { cleanupPercent } from './log-cleanup';
import { LOG_RETENTION } from './operation-setting';
import { OptionSection } from './option-section';

const updateOption = vi.fn(async (key: string, value: string) => ({ key, value }));
vi.mock('../../../api/option', () => ({
  fetchOptions: vi.fn(async () => ({})),
  updateOption: (key: string, value: string) => updateOption(key, value),
}));

const defaults = Object.fromEntries(LOG_RETENTION.map((field) => [field.key, '0']));

describe('log retention settings', () => {
  it('shows each retention option with its Chinese label and the rollup hint', () => {
    renderPage(<OptionSection titleKey="settingAdmin.section.logging" fields={LOG_RETENTION} options={defaults} />);
    for (const label of [
      '消费日志保留天数',
      '充值日志保留天数',
      '管理日志保留天数',
      '系统日志保留天数',
      '测试日志保留天数',
    ])
      expect(screen.getByLabelText(label)).toHaveValue('0');
    expect(screen.getByLabelText('消费统计（按小时汇总）保留天数')).toHaveValue('0');
    expect(screen.getByText(/原始日志删除后不再有的历史/)).toBeInTheDocument();
    // Every field says what 0 means, not only the first (issue 33 point 5).
    expect(screen.getByText(/^0 表示永久保留。/)).toBeInTheDocument();
    expect(screen.getAllByText('0 表示永久保留')).toHaveLength(4);
  });

  it('saves only the retention days that changed', async () => {
    renderPage(<OptionSection titleKey="settingAdmin.section.logging" fields={LOG_RETENTION} options={defaults} />);
    fireEvent.change(screen.getByLabelText('消费日志保留天数'), { target: { value: '30' } });
    fireEvent.change(screen.getByLabelText('消费统计（按小时汇总）保留天数'), { target: { value: '400' } });
    fireEvent.click(screen.getByRole('button', { name: /保存|save/i }));
    await screen.findByText('保存成功');
    expect(updateOption.mock.calls).toEqual([
      ['LogRetentionDaysConsume', '30'],
      ['LogRollupRetentionDays', '400'],
    ]);
  });

  it('turns cleanup progress into a percent', () => {
    expect(cleanupPercent({ done: 0, total: 0 })).toBe(0);
    expect(cleanupPercent({ done: 1, total: 3 })).toBe(33);
    expect(cleanupPercent({ done: 5, total: 4 })).toBe(100);
  });
});
