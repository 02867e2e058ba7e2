import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** Channel status badge: 1 enabled (green), 2 disabled manually (red), 3 disabled automatically (yellow). */
export function ChannelStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  if (status === 1) return <Tag color="green">{t('channel.status.enabled')}</Tag>;
  if (status === 2)
    return (
      <Tooltip title={t('channel.status.manualHint')}>
        <Tag color="red">{t('channel.status.disabled')}</Tag>
      </Tooltip>
    );
  if (status === 3)
    return (
      <Tooltip title={t('channel.status.autoHint')}>
        <Tag color="gold">{t('channel.status.autoDisabled')}</Tag>
      </Tooltip>
    );
  return <Tag>{t('channel.status.unknown')}</Tag>;
}
