import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../../test/render';
import { LimitsSection, limitsError } from './limits-section';

const updateOption = vi.fn(async (key: string, value: string) => ({ key, value }));
vi.mock('../../../api/option', () => ({
  fetchOptions: vi.fn(async () => ({})),
  updateOption: (key: string, value: string) => updateOption(key, value),
}));

describe('the limits section (issue 31)', { timeout: 60_000 }, () => {
  it('takes the server shape of GroupLimits and a known zone, and names what is wrong otherwise', () => {
    const zone = { TimeZone: 'Asia/Shanghai' };
    expect(limitsError({ ...zone, GroupLimits: '' })).toBeNull();
    expect(
      limitsError({ ...zone, GroupLimits: '{"vip":{"rpm_limit":60,"models":{"gpt-4o":{"tpm_limit":1000}}}}' }),
    ).toBeNull();
    expect(limitsError({ ...zone, GroupLimits: '{"vip":' })).toBe('settingAdmin.limits.invalid.json');
    expect(limitsError({ ...zone, GroupLimits: '{"vip":{"rpm":60}}' })).toBe('settingAdmin.limits.invalid.shape');
    expect(limitsError({ ...zone, GroupLimits: '{"vip":{"rpm_limit":-1}}' })).toBe('settingAdmin.limits.invalid.shape');
    // Models are per group, not nested in a model.
    expect(limitsError({ ...zone, GroupLimits: '{"vip":{"models":{"a":{"models":{}}}}}' })).toBe(
      'settingAdmin.limits.invalid.shape',
    );
    expect(limitsError({ TimeZone: 'Mars/Olympus', GroupLimits: '' })).toBe('settingAdmin.limits.invalid.timeZone');
  });

  it('saves only what changed through the option path', async () => {
    renderPage(<LimitsSection options={{ GroupLimits: '{}', TimeZone: 'UTC' }} />);
    const limits = await screen.findByLabelText('分组与模型限制');
    fireEvent.change(limits, { target: { value: '{"default":{"concurrency_limit":2}}' } });
    fireEvent.change(screen.getByLabelText('时区'), { target: { value: 'Asia/Shanghai' } });
    fireEvent.click(screen.getByRole('button', { name: '保存设置' }));
    await waitFor(() => expect(updateOption).toHaveBeenCalledTimes(2));
    expect(updateOption).toHaveBeenCalledWith('GroupLimits', '{"default":{"concurrency_limit":2}}');
    expect(updateOption).toHaveBeenCalledWith('TimeZone', 'Asia/Shanghai');
  });
});
