import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatTimestamp } from '../../lib/time';
import { sortedColumns } from '../shared/sorted-columns';
import { TokenActions, type TokenActionsProps } from './token-actions';
import { TokenModelsCell } from './token-models-cell';
import { LOW_QUOTA_THRESHOLD, NEVER_EXPIRES } from './token-quick-picks';
import { TokenStatusTag } from './token-status-tag';
import type { TokenListRow } from './use-token-list';

export interface TokenColumnContext extends Omit<TokenActionsProps, 'token'> {
  t: TFunction;
  renderQuota: (quota: number) => string;
}

const time = (t: TFunction, seconds: number) => formatTimestamp(seconds) ?? t('common.invalidTime');

/** Columns of the token table; header clicks sort the loaded rows. */
export function tokenColumns({ t, renderQuota, ...actions }: TokenColumnContext): ColumnsType<TokenListRow> {
  const sorted = sortedColumns<TokenListRow>();
  return [
    sorted.text(t('token.column.name'), 'name'),
    sorted.number(t('token.column.status'), 'status', (status) => <TokenStatusTag status={status} />),
    {
      title: t('token.column.models'),
      dataIndex: 'models',
      render: (models: string | null) => <TokenModelsCell models={models} />,
    },
    sorted.number(t('token.column.usedQuota'), 'used_quota', (quota) => renderQuota(quota)),
    sorted.number(t('token.column.remainQuota'), 'remain_quota', (quota, token) =>
      token.unlimited_quota ? (
        t('token.quota.unlimited')
      ) : (
        <Typography.Text type={quota < LOW_QUOTA_THRESHOLD ? 'danger' : undefined}>
          {renderQuota(quota)}
        </Typography.Text>
      ),
    ),
    {
      title: t('token.column.limits'),
      key: 'limits',
      render: (_, token) => <LimitsUsageText token={token} t={t} renderQuota={renderQuota} />,
    },
    sorted.number(t('token.column.createdTime'), 'created_time', (seconds) => time(t, seconds)),
    sorted.number(t('token.column.expiredTime'), 'expired_time', (seconds) =>
      seconds === NEVER_EXPIRES ? t('token.expiry.never') : time(t, seconds),
    ),
    {
      title: t('token.column.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, token) => <TokenActions token={token} {...actions} />,
    },
  ];
}

/**
 * What a token uses now of each limit it has ("used / limit", issue 31), one per line so a phone's column
 * stays narrow; nothing for a token without limits, or before the usage has loaded.
 */
function LimitsUsageText({
  token,
  t,
  renderQuota,
}: { token: TokenListRow } & Omit<TokenColumnContext, 'writeRow' | 'serverAddress' | 'chatLink' | 'onCopyFailed'>) {
  const usage = token.limits_usage;
  if (!usage) return null;
  const lines: string[] = [];
  for (const kind of ['rpm', 'tpm', 'concurrency'] as const) {
    const { used, limit } = usage[kind];
    if (limit > 0) lines.push(t(`token.limitsUsage.${kind}`, { used, limit }));
  }
  if (usage.budget)
    lines.push(
      t(`token.limitsUsage.budget.${usage.budget.period}`, {
        spent: renderQuota(usage.budget.spent),
        quota: renderQuota(usage.budget.quota),
      }),
    );
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </span>
  );
}
