import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { signIn } from '../../stores/user.store';
import { renderPage } from '../../test/render';
import TokenEditPage from '../token/token-edit-page';
import UserEditPage from './user-edit-page';

const users = vi.hoisted(() => ({ fetchUser: vi.fn(), updateUser: vi.fn() }));
vi.mock('../../api/user-admin', () => users);
const tokens = vi.hoisted(() => ({ fetchToken: vi.fn(), updateToken: vi.fn(), createToken: vi.fn() }));
vi.mock('../../api/token', () => tokens);
vi.mock('../../api/user', () => ({
  fetchSelf: vi.fn(),
  updateSelf: vi.fn(),
  fetchAvailableModels: vi.fn(async () => ['gpt-4o']),
}));
vi.mock('../../api/channel', () => ({ fetchGroups: vi.fn(async () => ['default']) }));

const submit = () => fireEvent.click(screen.getByRole('button', { name: /提\s*交/ }));

// Issue 29: a save from an edit page sends what the page loaded, so the server keeps charges made since.
describe('edit pages send the quota they loaded', () => {
  it('the user page sends original_quota, then the saved balance on the next save', async () => {
    signIn({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1 });
    users.fetchUser.mockResolvedValue({
      id: 7,
      username: 'alice',
      display_name: 'A',
      role: 1,
      status: 1,
      quota: -4_204_200,
      group: 'default',
    });
    users.updateUser.mockResolvedValueOnce({
      id: 7,
      username: 'alice',
      display_name: 'A',
      role: 1,
      status: 1,
      quota: -4_300_000,
    });
    renderPage(<UserEditPage />, '/user/edit/7', '/user/edit/:id');
    await waitFor(() => expect(screen.getByDisplayValue('alice')).toBeTruthy());
    submit();
    await waitFor(() => expect(users.updateUser).toHaveBeenCalledTimes(1));
    expect(users.updateUser.mock.calls[0]![0]).toMatchObject({ id: 7, quota: -4_204_200, original_quota: -4_204_200 });
    // The page now shows the balance the server answered, charges included, and starts the next save from it.
    await waitFor(() => expect(screen.getByDisplayValue('-4300000')).toBeTruthy());
    users.updateUser.mockResolvedValueOnce(undefined);
    submit();
    await waitFor(() => expect(users.updateUser).toHaveBeenCalledTimes(2));
    expect(users.updateUser.mock.calls[1]![0]).toMatchObject({ quota: -4_300_000, original_quota: -4_300_000 });
  });

  // The token page renders many fields: slow in jsdom on a busy machine.
  it('the token page sends original_remain_quota', { timeout: 60_000 }, async () => {
    signIn({ id: 1, username: 'root', display_name: 'Root', role: 100, status: 1 });
    const token = {
      id: 3,
      user_id: 1,
      key: 'k'.repeat(48),
      status: 1,
      name: 'mine',
      created_time: 1,
      accessed_time: 1,
      expired_time: -1,
      remain_quota: 99_979,
      unlimited_quota: false,
      used_quota: 21,
      models: '',
      subnet: '',
    };
    tokens.fetchToken.mockResolvedValue(token);
    tokens.updateToken.mockResolvedValue({ ...token, remain_quota: 99_000 });
    renderPage(<TokenEditPage />, '/token/edit/3', '/token/edit/:id');
    await waitFor(() => expect(screen.getByDisplayValue('mine')).toBeTruthy());
    submit();
    await waitFor(() => expect(tokens.updateToken).toHaveBeenCalledTimes(1));
    expect(tokens.updateToken.mock.calls[0]![0]).toMatchObject({
      id: 3,
      remain_quota: 99_979,
      original_remain_quota: 99_979,
    });
    submit();
    await waitFor(() => expect(tokens.updateToken).toHaveBeenCalledTimes(2));
    expect(tokens.updateToken.mock.calls[1]![0]).toMatchObject({ remain_quota: 99_000, original_remain_quota: 99_000 });
  });
});
