import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { renderPage } from '../../test/render';
import { BudgetLine } from './budget-line';

const usage = (budget: unknown) => ({
  rpm: { used: 0, limit: 0 },
  tpm: { used: 0, limit: 0 },
  concurrency: { used: 0, limit: 0 },
  budget,
});

describe('the budget next to the balance (issue 31)', () => {
  it('says what was spent of the quota in the period', async () => {
    const get = vi
      .spyOn(api, 'get')
      .mockResolvedValue(usage({ spent: 150, quota: 1000, period: 'month', resets_at: 0 }) as never);
    renderPage(<BudgetLine renderQuota={(quota) => `$${quota / 100}`} />);
    expect(await screen.findByText('预算：本月已用 $1.5 / $10')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/api/user/self/limits_usage');
    get.mockRestore();
  });

  it('shows nothing without a budget', async () => {
    const get = vi.spyOn(api, 'get').mockResolvedValue(usage(null) as never);
    const { container } = renderPage(<BudgetLine renderQuota={String} />);
    await vi.waitFor(() => expect(get).toHaveBeenCalled());
    expect(container.querySelector('[data-testid="budget-line"]')).toBeNull();
    get.mockRestore();
  });
});
