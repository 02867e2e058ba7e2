import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { api, client } from '../../../api/client';
import { renderPage } from '../../../test/render';
import ReauthHost from './reauth-host';

describe('ReauthHost', () => {
  afterEach(() => {
    client.defaults.adapter = undefined;
  });

  it('asks for the password when a call is refused with require_reauth, then sends the call again', async () => {
    const sent: { url?: string; data?: unknown }[] = [];
    let confirmed = false;
    client.defaults.adapter = async (config) => {
      if (config.url === '/api/user/passkeys')
        return { data: { success: true, message: '', data: [] }, status: 200, statusText: 'OK', headers: {}, config };
      sent.push({ url: config.url, data: config.data ? JSON.parse(config.data as string) : undefined });
      const body =
        config.url === '/api/user/reauth'
          ? ((confirmed = true), { success: true, message: '', data: { two_factor: false } })
          : confirmed
            ? { success: true, message: '', data: 'saved' }
            : { success: false, message: 'again', data: { require_reauth: true } };
      return { data: body, status: 200, statusText: 'OK', headers: {}, config };
    };
    renderPage(<ReauthHost />);
    const call = api.put<string>('/api/price/', { model: 'm' });
    const dialog = await screen.findByRole('dialog', {}, { timeout: 5000 });
    expect(within(dialog).getByText('验证身份')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('密码', { selector: 'input[type=password]' }), {
      target: { value: 'secret-pass' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    await waitFor(() => expect(sent).toHaveLength(3), { timeout: 5000 });
    expect(await call).toBe('saved');
    expect(sent.map((request) => request.url)).toEqual(['/api/price/', '/api/user/reauth', '/api/price/']);
    expect(sent[1]!.data).toEqual({ password: 'secret-pass' });
    // This user has no passkey: none is offered.
    expect(screen.queryByText('通行密钥')).not.toBeInTheDocument();
  });

  it('offers a passkey to a user who has one', async () => {
    client.defaults.adapter = async (config) => {
      const body =
        config.url === '/api/user/passkeys'
          ? { success: true, message: '', data: [{ id: 1, name: 'Laptop', created_at: 1, last_used_at: 0 }] }
          : { success: false, message: 'again', data: { require_reauth: true } };
      return { data: body, status: 200, statusText: 'OK', headers: {}, config };
    };
    renderPage(<ReauthHost />);
    void api.put<string>('/api/price/', { model: 'm' }).catch(() => undefined);
    const dialog = await screen.findByRole('dialog', {}, { timeout: 5000 });
    fireEvent.click(await within(dialog).findByText('通行密钥'));
    expect(await within(dialog).findByText(/使用此账户的通行密钥验证/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '使用通行密钥' })).toBeEnabled();
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s?消/ }));
  });
});
