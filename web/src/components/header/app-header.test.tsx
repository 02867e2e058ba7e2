import { fireEvent, screen, within } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { applyStatus } from '../../stores/status.store';
import { signIn, signOut } from '../../stores/user.store';
import { renderPage } from '../../test/render';
import { AppHeader } from './app-header';

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

const menuLabels = () =>
  Array.from(document.querySelectorAll('.ant-menu-item .ant-menu-title-content')).map((item) => item.textContent);

describe('AppHeader', () => {
  it('shows Home and Model list with Login and Register to visitors', () => {
    setWidth(1280);
    signOut();
    applyStatus({ system_name: 'Gate X' });
    renderPage(<AppHeader />);
    expect(screen.getByTestId('system-name')).toHaveTextContent('Gate X');
    expect(menuLabels()).toEqual(['首页', '模型列表']);
    expect(screen.getByRole('button', { name: '登 录' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '注 册' })).toBeInTheDocument();
  });

  it('shows every entry to admins with Chat third when a chat link is stored', () => {
    setWidth(1600);
    applyStatus({ chat_link: 'https://chat.example' });
    signIn({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1 });
    renderPage(<AppHeader />);
    expect(menuLabels()).toEqual([
      '首页',
      '渠道',
      '聊天',
      '令牌',
      '兑换',
      '充值',
      '用户',
      '日志',
      '审计',
      '模型列表',
      '服务状态',
    ]);
    expect(screen.getByTestId('account-menu')).toHaveTextContent('root');
    expect(localStorage.getItem('chat_link')).toBe('https://chat.example');
  });

  it('collapses behind a toggle at 375 px with the same entries and a logout button', () => {
    setWidth(375);
    applyStatus({});
    signIn({ id: 2, username: 'alice', display_name: '', role: 1, status: 1 });
    renderPage(<AppHeader />);
    expect(screen.queryByTestId('mobile-menu')).toBeNull();
    act(() => fireEvent.click(screen.getByTestId('menu-toggle')));
    const panel = screen.getByTestId('mobile-menu');
    expect(menuLabels()).toEqual(['首页', '令牌', '充值', '日志', '模型列表', '服务状态']);
    expect(within(panel).getByRole('button', { name: /退出登录/ })).toBeInTheDocument();
  });
});
