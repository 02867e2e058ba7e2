import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { renderPage } from '../../test/render';
import TopUpPage, { ENLARGE_MS } from './topup-page';

vi.mock('../../api/user', () => ({
  fetchSelf: vi.fn(async () => ({
    id: 1,
    username: 'u',
    display_name: 'u',
    role: 1,
    status: 1,
    quota: 500000,
    used_quota: 250000,
  })),
  redeemTopUpCode: vi.fn(async () => 1_000_000),
}));

describe('TopUpPage', () => {
  beforeEach(() => {
    localStorage.setItem('display_in_currency', 'true');
    // The budget line's read (budget-line.test.tsx): no budget here.
    vi.spyOn(api, 'get').mockResolvedValue(null);
  });

  it('adds the redeemed amount, clears the code and enlarges the circles for 3 s', async () => {
    renderPage(<TopUpPage />, '/topup');
    const remaining = await screen.findByTestId('remaining-circle');
    await waitFor(() => expect(remaining.textContent).toContain('$1.00'));
    expect(screen.getByTestId('consumed-circle').textContent).toContain('$0.50');

    const input = screen.getByPlaceholderText('请输入兑换码');
    fireEvent.change(input, { target: { value: 'code-1' } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole('button', { name: /^兑\s?换$/ }));
    await waitFor(() => expect(remaining.textContent).toContain('$3.00'));
    expect((input as HTMLInputElement).value).toBe('');
    expect(remaining.style.transform).toBe('scale(1.15)');
    await act(async () => {
      vi.advanceTimersByTime(ENLARGE_MS);
    });
    expect(remaining.style.transform).toBe('scale(1)');
    vi.useRealTimers();
  });
});
