import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../test/render';
import { tokenColumns } from './token-columns';
import { hasLimits, type TokenListRow } from './use-token-list';

const base = { rpm_limit: 0, tpm_limit: 0, concurrency_limit: 0, budget_quota: 0, budget_period: '' } as TokenListRow;

const limitsCell = (token: TokenListRow): ReactNode => {
  const columns = tokenColumns({
    t: i18next.t.bind(i18next),
    renderQuota: (quota) => `$${quota / 100}`,
    serverAddress: '',
    chatLink: '',
    writeRow: (() => undefined) as never,
    onCopyFailed: () => undefined,
  });
  const column = columns.find((entry) => entry.key === 'limits')!;
  return column.render!(undefined, token, 0) as ReactNode;
};

describe('the token list’s limits column (issue 31)', () => {
  it('shows "used / limit" for each limit set, and the budget of its period', async () => {
    renderPage(<div />);
    const token: TokenListRow = {
      ...base,
      rpm_limit: 10,
      budget_quota: 500,
      budget_period: 'week',
      limits_usage: {
        rpm: { used: 2, limit: 10 },
        tpm: { used: 0, limit: 0 },
        concurrency: { used: 0, limit: 0 },
        budget: { spent: 120, quota: 500, period: 'week', resets_at: 0 },
      },
    };
    expect(hasLimits(token)).toBe(true);
    render(<>{limitsCell(token)}</>);
    expect(screen.getByText('RPM 2 / 10')).toBeInTheDocument();
    expect(screen.getByText('预算 本周 $1.2 / $5')).toBeInTheDocument();
    expect(screen.queryByText(/TPM|并发/)).toBeNull();
  });

  it('shows nothing for a token without limits', () => {
    expect(hasLimits(base)).toBe(false);
    const { container } = render(<>{limitsCell(base)}</>);
    expect(container.textContent).toBe('');
  });
});
