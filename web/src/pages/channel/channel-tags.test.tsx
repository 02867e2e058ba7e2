import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { ChannelStatusTag } from './channel-status-tag';
import { ResponseTimeTag } from './response-time-tag';

initI18n();

const tagOf = (text: string) => screen.getByText(text).closest('.ant-tag');

describe('channel tags', () => {
  it('shows untested channels in grey and tested ones in seconds with the threshold colour', () => {
    render(
      <>
        <ResponseTimeTag milliseconds={0} testTime={0} />
        <ResponseTimeTag milliseconds={800} testTime={0} />
        <ResponseTimeTag milliseconds={2500} testTime={0} />
        <ResponseTimeTag milliseconds={4200} testTime={0} />
        <ResponseTimeTag milliseconds={7000} testTime={0} />
      </>,
    );
    expect(tagOf('未测试')?.className).not.toMatch(/ant-tag-(green|lime|gold|red)/);
    expect(tagOf('0.80 秒')?.className).toMatch(/green/);
    expect(tagOf('2.50 秒')?.className).toMatch(/lime/);
    expect(tagOf('4.20 秒')?.className).toMatch(/gold/);
    expect(tagOf('7.00 秒')?.className).toMatch(/red/);
  });

  it('colours the channel status', () => {
    render(
      <>
        <ChannelStatusTag status={1} />
        <ChannelStatusTag status={2} />
        <ChannelStatusTag status={3} />
        <ChannelStatusTag status={9} />
      </>,
    );
    expect(tagOf('已启用')?.className).toMatch(/green/);
    const disabled = screen.getAllByText('已禁用').map((node) => node.closest('.ant-tag')?.className ?? '');
    expect(disabled.some((name) => /red/.test(name))).toBe(true);
    expect(disabled.some((name) => /gold/.test(name))).toBe(true);
    expect(screen.getByText('未知状态')).toBeTruthy();
  });
});
