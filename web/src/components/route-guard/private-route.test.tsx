import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signIn, signOut } from '../../stores/user.store';
import { renderRoutes } from '../../test/render';
import { PrivateRoute } from './private-route';

const routes = (access: 'signedIn' | 'admin') => [
  {
    path: '/token',
    element: (
      <PrivateRoute access={access}>
        <div>secret page</div>
      </PrivateRoute>
    ),
  },
  { path: '/login', element: <div>login page</div> },
  { path: '/', element: <div>home page</div> },
];

describe('PrivateRoute', () => {
  it('sends visitors without a stored user to /login', async () => {
    signOut();
    const { router } = renderRoutes(routes('signedIn'), '/token');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('lets a stored user in', () => {
    signIn({ id: 2, username: 'alice', display_name: '', role: 1, status: 1 });
    renderRoutes(routes('signedIn'), '/token');
    expect(screen.getByText('secret page')).toBeInTheDocument();
  });

  it('tells ordinary users that admin pages are not theirs', () => {
    signIn({ id: 2, username: 'alice', display_name: '', role: 1, status: 1 });
    renderRoutes(routes('admin'), '/token');
    expect(screen.queryByText('secret page')).toBeNull();
    expect(screen.getByText('你没有权限访问此页面')).toBeInTheDocument();
  });

  it('offers a way home from the refusal, and back only when there is a page to go back to', async () => {
    signIn({ id: 2, username: 'alice', display_name: '', role: 1, status: 1 });
    const { router } = renderRoutes(routes('admin'), '/token');
    expect(screen.queryByRole('button', { name: '返回上一页' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '返回首页' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    await router.navigate('/token');
    fireEvent.click(await screen.findByRole('button', { name: '返回上一页' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
  });
});
