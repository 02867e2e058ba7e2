import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { applyStatus } from '../../stores/status.store';
import { renderRoutes } from '../../test/render';
import RegisterPage from './register-page';

const register = vi.hoisted(() => vi.fn());
const sendVerificationCode = vi.hoisted(() => vi.fn());
vi.mock('../../api/user', () => ({ register, sendVerificationCode }));

const routes = [
  { path: '/register', element: <RegisterPage /> },
  { path: '/login', element: <div>login page</div> },
];

function fill(username: string, password: string, password2: string) {
  fireEvent.change(screen.getByPlaceholderText('输入用户名，最长 12 位'), { target: { value: username } });
  fireEvent.change(screen.getByPlaceholderText('输入密码，最短 8 位，最长 20 位'), { target: { value: password } });
  fireEvent.change(screen.getByPlaceholderText('再次输入密码'), { target: { value: password2 } });
  fireEvent.click(screen.getByRole('button', { name: '注 册' }));
}

describe('RegisterPage', () => {
  it('keeps ?aff= in local storage', () => {
    applyStatus({});
    renderRoutes(routes, '/register?aff=Zx9a');
    expect(localStorage.getItem('aff')).toBe('Zx9a');
  });

  it('rejects short passwords and mismatches', async () => {
    applyStatus({});
    renderRoutes(routes, '/register');
    fill('bob', 'short', 'other');
    expect(await screen.findByText('密码长度不得小于 8 位！')).toBeInTheDocument();
    expect(await screen.findByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(register).not.toHaveBeenCalled();
  });

  it('registers with the stored invite code and goes to /login', async () => {
    applyStatus({});
    localStorage.setItem('aff', 'Ab12');
    register.mockResolvedValue(null);
    const { router } = renderRoutes(routes, '/register');
    fill('bob', 'password1', 'password1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(register).toHaveBeenCalledWith(
      {
        username: 'bob',
        password: 'password1',
        password2: 'password1',
        email: '',
        verification_code: '',
        aff_code: 'Ab12',
      },
      '',
    );
  });

  it('asks for email and code when email verification is on, with a 30 s resend countdown', async () => {
    applyStatus({ email_verification: true });
    sendVerificationCode.mockResolvedValue(null);
    renderRoutes(routes, '/register');
    fireEvent.change(screen.getByPlaceholderText('输入邮箱地址'), { target: { value: 'bob@example.com' } });
    fireEvent.click(screen.getByText('获取验证码'));
    expect((await screen.findByText('重试 (30)')).closest('button')).toBeDisabled();
    expect(sendVerificationCode).toHaveBeenCalledWith('bob@example.com', '');
  });
});
