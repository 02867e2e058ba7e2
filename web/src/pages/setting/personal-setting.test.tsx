import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosRequestConfig } from 'axios';
import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../../api/client';
import { statusStore } from '../../stores/status.store';
import { renderPage } from '../../test/render';
import { PersonalSetting } from './personal-setting';

describe('PersonalSetting', () => {
  afterEach(() => {
    act(() => statusStore.set({}));
    client.defaults.adapter = undefined;
  });

  it('binding WeChat fetches a fresh one-time state and sends it with the code', async () => {
    statusStore.set({ wechat_login: true });
    const sent: { url?: string; params?: Record<string, unknown> }[] = [];
    let wechatId = '';
    let issuedState = '';
    client.defaults.adapter = async (config) => {
      sent.push({ url: config.url, params: (config as AxiosRequestConfig).params });
      if (config.url === '/api/oauth/wechat/bind') wechatId = 'wx-bound';
      if (config.url === '/api/oauth/state') issuedState = `state${sent.length}`;
      const data =
        config.url === '/api/oauth/state'
          ? issuedState
          : config.url === '/api/user/self'
            ? { id: 3, username: 'alice', display_name: 'Alice', role: 1, status: 1, quota: 0, wechat_id: wechatId }
            : null;
      return { data: { success: true, message: '', data }, status: 200, statusText: 'OK', headers: {}, config };
    };
    renderPage(<PersonalSetting />, '/setting');
    await waitFor(() => expect(screen.getByLabelText('用户名')).toHaveValue('alice'));
    fireEvent.click(screen.getByRole('button', { name: /绑定微信账号/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByPlaceholderText('验证码'), { target: { value: '654321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^提\s?交$/ }));
    expect(await screen.findByText('微信账户绑定成功！')).toBeInTheDocument();
    expect(sent.filter((call) => call.url?.startsWith('/api/oauth/'))).toEqual([
      { url: '/api/oauth/state', params: undefined },
      { url: '/api/oauth/wechat/bind', params: { code: '654321', state: issuedState } },
    ]);
    await waitFor(() => expect(screen.getByDisplayValue('wx-bound')).toBeInTheDocument());
  });
});
