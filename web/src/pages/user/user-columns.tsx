import { Button, Popconfirm, Space, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { User } from '../../api/types';
import { manageUser, type ManageAction } from '../../api/user-admin';
import type { RowWriter } from '../../hooks/use-row-write';
import { notify } from '../../lib/notify';
import { sortedColumns } from '../shared/sorted-columns';
import { GroupBadges, RoleBadge, UserStatusBadge } from './user-badges';
import { UserNameCell } from './user-name-cell';

export interface UserColumnContext {
  t: TFunction;
  renderQuota: (quota: number) => string;
  writeRow: RowWriter<User>;
  onEdit: (id: number) => void;
}

/** Columns of the user table; actions are disabled on super-admin rows. */
export function userColumns({ t, renderQuota, writeRow, onEdit }: UserColumnContext): ColumnsType<User> {
  const manage = (user: User, action: ManageAction) =>
    writeRow(user.id, async () => {
      const result = await manageUser(user.username, action);
      notify.success(t('user.toast.success'));
      return action === 'delete' ? null : { role: result?.role ?? user.role, status: result?.status ?? user.status };
    });
  const sorted = sortedColumns<User>();
  return [
    sorted.number(t('user.column.id'), 'id'),
    sorted.text(t('user.column.username'), 'username', (_, user) => <UserNameCell user={user} />),
    {
      title: t('user.column.group'),
      dataIndex: 'group',
      sorter: (a, b) => (a.group ?? '').localeCompare(b.group ?? ''),
      render: (group: string) => <GroupBadges group={group} />,
    },
    {
      title: t('user.column.quota'),
      key: 'quota',
      sorter: (a, b) => (a.quota ?? 0) - (b.quota ?? 0),
      render: (_, user) => (
        <Space size={4} wrap>
          <Tooltip title={t('user.quota.remaining')}>
            <span>{renderQuota(user.quota ?? 0)}</span>
          </Tooltip>
          <Tooltip title={t('user.quota.used')}>
            <span>/ {renderQuota(user.used_quota ?? 0)}</span>
          </Tooltip>
          <Tooltip title={t('user.quota.requests')}>
            <span>/ {user.request_count ?? 0}</span>
          </Tooltip>
        </Space>
      ),
    },
    sorted.number(t('user.column.role'), 'role', (role) => <RoleBadge role={role} />),
    sorted.number(t('user.column.status'), 'status', (status) => <UserStatusBadge status={status} />),
    {
      title: t('user.column.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, user) => {
        const locked = user.role === 100;
        return (
          <Space size={4} wrap>
            <Button size="small" disabled={locked} onClick={() => manage(user, 'promote')}>
              {t('user.action.promote')}
            </Button>
            <Button size="small" disabled={locked} onClick={() => manage(user, 'demote')}>
              {t('user.action.demote')}
            </Button>
            <Popconfirm
              title={t('user.confirm.delete', { name: user.username })}
              onConfirm={() => manage(user, 'delete')}
              disabled={locked}
            >
              <Button size="small" danger disabled={locked}>
                {t('user.action.delete')}
              </Button>
            </Popconfirm>
            <Button
              size="small"
              disabled={locked}
              onClick={() => manage(user, user.status === 1 ? 'disable' : 'enable')}
            >
              {user.status === 1 ? t('user.action.disable') : t('user.action.enable')}
            </Button>
            <Button size="small" disabled={locked} onClick={() => onEdit(user.id)}>
              {t('user.action.edit')}
            </Button>
          </Space>
        );
      },
    },
  ];
}
