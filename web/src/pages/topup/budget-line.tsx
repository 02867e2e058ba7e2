import type { LimitsUsage } from '@modelgate/wire';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { queryKeys } from '../../lib/query-keys';

const fetchOwnLimitsUsage = () => api.get<LimitsUsage>('/api/user/self/limits_usage');

/** The caller's budget next to the balance (issue 31): "spent / quota this day|week|month"; nothing without one. */
export function BudgetLine({ renderQuota }: { renderQuota: (quota: number) => string }) {
  const { t } = useTranslation();
  const budget = useQuery({ queryKey: queryKeys.read('user', 'limits_usage'), queryFn: fetchOwnLimitsUsage }).data
    ?.budget;
  if (!budget) return null;
  return (
    <Typography.Paragraph style={{ textAlign: 'center' }} data-testid="budget-line">
      {t(`topup.budget.${budget.period}`, { spent: renderQuota(budget.spent), quota: renderQuota(budget.quota) })}
    </Typography.Paragraph>
  );
}
