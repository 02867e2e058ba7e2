import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { client } from '../../api/client';
import { statusStore } from '../../stores/status.store';
import { renderRoutes } from '../../test/render';
import LoginPage from './login-page';

const login = vi.hoisted(() => vi.fn());
const loginWithPasskey = vi.hoisted(() => vi.fn());
vi.mock('../../api/user', () => ({ login, loginWithPasskey }));

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '/token', element: <div>token page</div> },
  { path: '/user/edit', element: <div>edit self</div> },
  { path: '/', element: <div>home page</div> },
];

const signedIn = (data: object) => ({ success: true, message: '', data });

async function submit(username: string, password: string) {
  fireEvent.change(screen.getByPlaceholderText('用户名或邮箱地址'), { target: { value: username } });
  fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: '登 录' }));
}

describe('LoginPage', () => {
  beforeEach(() => {
    login.mockReset();
    loginWithPasskey.mockReset();
  });
  afterEach(() => {
    act(() => statusStore.set({}));
    client.defaults.adapter = undefined;
  });

  it('explains an expired session and forgets the stale user', () => {
    localStorage.setItem('user', JSON.stringify({ id: 9, username: 'ghost', display_name: '', role: 1, status: 1 }));
    renderRoutes(routes, '/login?expired=true');
    expect(screen.getByText('未登录或登录已过期，请重新登录！')).toBeInTheDocument();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('stores the user and lands on /token', async () => {
    login.mockResolvedValue(signedIn({ id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 }));
    const { router } = renderRoutes(routes, '/login');
    await submit('alice', 'password1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'alice' });
    expect(login).toHaveBeenCalledWith({ username: 'alice', password: 'password1' });
  });

  it('sends root with the default password to /user/edit', async () => {
    login.mockResolvedValue(signedIn({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1 }));
    const { router } = renderRoutes(routes, '/login');
    await submit('root', '123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/edit'));
  });

  it('asks for the second factor when the account has one, then signs in with the code', async () => {
    const user = { id: 4, username: 'bob', display_name: 'Bob', role: 1, status: 1 };
    login
      .mockResolvedValueOnce({ success: false, message: '请输入两步验证码', data: { require_2fa: true } })
      .mockResolvedValueOnce(signedIn(user));
    const { router } = renderRoutes(routes, '/login');
    await submit('bob', 'password1');
    const code = await screen.findByLabelText('验证码');
    expect(screen.getByText('请输入身份验证器 App 中的 6 位动态码，或一个备用码。')).toBeInTheDocument();
    // The password form is out of the way, its values kept for the second try.
    expect(screen.queryByPlaceholderText('密码')).toBeNull();
    fireEvent.change(code, { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('button', { name: '登 录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(login).toHaveBeenNthCalledWith(2, { username: 'bob', password: 'password1', totp_code: '123456' });
  });

  it('after a third-party sign-in that waits for the second factor, sends the code alone', async () => {
    login.mockResolvedValueOnce(signedIn({ id: 5, username: 'github_5', display_name: 'Octo', role: 1, status: 1 }));
    const { router } = renderRoutes(routes, '/login?second_factor=1');
    const code = await screen.findByLabelText('验证码');
    expect(screen.queryByPlaceholderText('密码')).toBeNull();
    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: '登 录' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(login).toHaveBeenCalledWith({ totp_code: '654321' });
  });

  it('hides third-party buttons unless the status turns them on', () => {
    renderRoutes(routes, '/login');
    expect(screen.queryByRole('button', { name: '使用 GitHub 登录' })).toBeNull();
  });

  it('the WeChat dialog fetches a fresh one-time state and sends it with the code', async () => {
    statusStore.set({ wechat_login: true });
    const sent: { url?: string; params?: Record<string, unknown> }[] = [];
    const user = { id: 7, username: 'wechat_7', display_name: 'WeChat User', role: 1, status: 1 };
    client.defaults.adapter = async (config) => {
      sent.push({ url: config.url, params: (config as AxiosRequestConfig).params });
      const data = config.url === '/api/oauth/state' ? `state${sent.length}` : user;
      return { data: { success: true, message: '', data }, status: 200, statusText: 'OK', headers: {}, config };
    };
    const { router } = renderRoutes(routes, '/login');
    fireEvent.click(screen.getByRole('button', { name: '使用微信登录' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('微信扫码登录')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByPlaceholderText('验证码'), { target: { value: ' 123456 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^提\s?交$/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent).toEqual([
      { url: '/api/oauth/state', params: undefined },
      { url: '/api/oauth/wechat', params: { code: '123456', state: 'state1' } },
    ]);
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'wechat_7' });
  });

  it('signs in with a passkey without a username or a code, and says so when the prompt is cancelled', async () => {
    loginWithPasskey.mockRejectedValueOnce(new DOMException('The operation was aborted.', 'NotAllowedError'));
    const { router } = renderRoutes(routes, '/login');
    fireEvent.click(screen.getByRole('button', { name: /使用通行密钥登录/ }));
    expect(await screen.findByText('未能使用通行密钥登录：操作已取消、超时或此浏览器不支持')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');

    loginWithPasskey.mockResolvedValueOnce({ id: 5, username: 'carol', display_name: 'Carol', role: 1, status: 1 });
    fireEvent.click(screen.getByRole('button', { name: /使用通行密钥登录/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'carol' });
    expect(login).not.toHaveBeenCalled();
  });
});
