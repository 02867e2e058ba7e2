import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const GROUP_COLORS: Record<string, string> = { vip: 'gold', pro: 'gold', svip: 'red', premium: 'red' };

/** Group badges; an empty group shows 'default'. */
export function GroupBadges({ group }: { group: string | undefined }) {
  const names = (group || 'default')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return (
    <Space size={4} wrap>
      {names.map((name) => (
        <Tag key={name} color={GROUP_COLORS[name]}>
          {name}
        </Tag>
      ))}
    </Space>
  );
}

/** Role badge: 1 normal user, 10 admin, 100 super admin, else unknown. */
export function RoleBadge({ role }: { role: number }) {
  const { t } = useTranslation();
  if (role === 1) return <Tag>{t('user.role.common')}</Tag>;
  if (role === 10) return <Tag color="gold">{t('user.role.admin')}</Tag>;
  if (role === 100) return <Tag color="orange">{t('user.role.root')}</Tag>;
  return <Tag color="red">{t('user.role.unknown')}</Tag>;
}

/** Status badge: 1 activated, 2 banned, else unknown. */
export function UserStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  if (status === 1) return <Tag color="green">{t('user.status.enabled')}</Tag>;
  if (status === 2) return <Tag color="red">{t('user.status.banned')}</Tag>;
  return <Tag color="default">{t('user.status.unknown')}</Tag>;
}
