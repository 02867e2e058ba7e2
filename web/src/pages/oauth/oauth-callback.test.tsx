import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../test/render';
import { OAuthCallback } from './oauth-callback';

const sendOAuthCode = vi.hoisted(() => vi.fn());
vi.mock('../../api/oauth', () => ({ sendOAuthCode }));

const routes = [
  { path: '/oauth/github', element: <OAuthCallback provider="github" /> },
  { path: '/setting', element: <div>setting page</div> },
  { path: '/', element: <div>home page</div> },
];

describe('OAuthCallback', () => {
  it('goes to /setting without retrying when the first attempt fails', async () => {
    sendOAuthCode.mockResolvedValue({ success: false, message: 'state is empty or not same', data: null });
    const { router } = renderRoutes(routes, '/oauth/github?code=c1&state=s1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting'));
    expect(sendOAuthCode).toHaveBeenCalledTimes(1);
    expect(sendOAuthCode).toHaveBeenCalledWith('github', 'c1', 's1');
  });

  it('goes to /setting after a bind and to / after a sign-in', async () => {
    sendOAuthCode.mockResolvedValueOnce({ success: true, message: 'bind', data: null });
    const first = renderRoutes(routes, '/oauth/github?code=c&state=s');
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/setting'));
    first.unmount();
    sendOAuthCode.mockResolvedValueOnce({
      success: true,
      message: '',
      data: { id: 5, username: 'github_5', display_name: '', role: 1, status: 1 },
    });
    const second = renderRoutes(routes, '/oauth/github?code=c&state=s');
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/'));
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'github_5' });
    expect(await screen.findByText('home page')).toBeInTheDocument();
  });
});
