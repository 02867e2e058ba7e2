import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatTimestamp } from '../../lib/time';
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
  return [
    { title: t('token.column.name'), dataIndex: 'name', sorter: (a, b) => a.name.localeCompare(b.name) },
    {
      title: t('token.column.status'),
      dataIndex: 'status',
      sorter: (a, b) => a.status - b.status,
      render: (status: number) => <TokenStatusTag status={status} />,
    },
    {
      title: t('token.column.models'),
      dataIndex: 'models',
      render: (models: string | null) => <TokenModelsCell models={models} />,
    },
    {
      title: t('token.column.usedQuota'),
      dataIndex: 'used_quota',
      sorter: (a, b) => a.used_quota - b.used_quota,
      render: (quota: number) => renderQuota(quota),
    },
    {
      title: t('token.column.remainQuota'),
      dataIndex: 'remain_quota',
      sorter: (a, b) => a.remain_quota - b.remain_quota,
      render: (quota: number, token) =>
        token.unlimited_quota ? (
          t('token.quota.unlimited')
        ) : (
          <Typography.Text type={quota < LOW_QUOTA_THRESHOLD ? 'danger' : undefined}>
            {renderQuota(quota)}
          </Typography.Text>
        ),
    },
    {
      title: t('token.column.limits'),
      key: 'limits',
      render: (_, token) => <LimitsUsageText token={token} t={t} renderQuota={renderQuota} />,
    },
    {
      title: t('token.column.createdTime'),
      dataIndex: 'created_time',
      sorter: (a, b) => a.created_time - b.created_time,
      render: (seconds: number) => time(t, seconds),
    },
    {
      title: t('token.column.expiredTime'),
      dataIndex: 'expired_time',
      sorter: (a, b) => a.expired_time - b.expired_time,
      render: (seconds: number) => (seconds === NEVER_EXPIRES ? t('token.expiry.never') : time(t, seconds)),
    },
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
