import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, string> = { 1: 'green', 2: 'red', 3: 'gold', 4: 'default' };
const KEYS: Record<number, string> = { 1: 'enabled', 2: 'disabled', 3: 'expired', 4: 'exhausted' };

/** Token status: 1 enabled, 2 disabled, 3 expired, 4 exhausted, else unknown. */
export function TokenStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const key = KEYS[status];
  return <Tag color={COLORS[status] ?? 'default'}>{key ? t(`token.status.${key}`) : t('token.status.unknown')}</Tag>;
}
