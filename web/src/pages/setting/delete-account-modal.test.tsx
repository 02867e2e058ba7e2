import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { notify } from '../../lib/notify';
import { DeleteAccountModal } from './delete-account-modal';

initI18n();

describe('DeleteAccountModal', () => {
  it('refuses until the username is typed', async () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const onConfirm = vi.fn().mockResolvedValue(undefined);
    render(<DeleteAccountModal open username="alice" onClose={() => undefined} onConfirm={onConfirm} />);
    fireEvent.click(screen.getByRole('button', { name: '确认删除' }));
    expect(error).toHaveBeenCalledWith('请输入你的账户名以确认删除！');
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(screen.getByPlaceholderText('alice'), { target: { value: 'alice' } });
    fireEvent.click(screen.getByRole('button', { name: '确认删除' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
  });
});
