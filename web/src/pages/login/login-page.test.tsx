import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../test/render';
import LoginPage from './login-page';

const login = vi.hoisted(() => vi.fn());
vi.mock('../../api/user', () => ({ login }));

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '/token', element: <div>token page</div> },
  { path: '/user/edit', element: <div>edit self</div> },
];

async function submit(username: string, password: string) {
  fireEvent.change(screen.getByPlaceholderText('用户名或邮箱地址'), { target: { value: username } });
  fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: '登 录' }));
}

describe('LoginPage', () => {
  beforeEach(() => login.mockReset());

  it('explains an expired session and forgets the stale user', () => {
    localStorage.setItem('user', JSON.stringify({ id: 9, username: 'ghost', display_name: '', role: 1, status: 1 }));
    renderRoutes(routes, '/login?expired=true');
    expect(screen.getByText('未登录或登录已过期，请重新登录！')).toBeInTheDocument();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('stores the user and lands on /token', async () => {
    login.mockResolvedValue({ id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1 });
    const { router } = renderRoutes(routes, '/login');
    await submit('alice', 'password1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'alice' });
    expect(login).toHaveBeenCalledWith('alice', 'password1');
  });

  it('sends root with the default password to /user/edit', async () => {
    login.mockResolvedValue({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1 });
    const { router } = renderRoutes(routes, '/login');
    await submit('root', '123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/edit'));
  });

  it('hides third-party buttons unless the status turns them on', () => {
    renderRoutes(routes, '/login');
    expect(screen.queryByRole('button', { name: '使用 GitHub 登录' })).toBeNull();
  });
});
