import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, string> = { 1: 'green', 2: 'red', 3: 'default' };
const KEYS: Record<number, string> = { 1: 'unused', 2: 'disabled', 3: 'used' };

/** Redemption status: 1 unused, 2 disabled, 3 used. */
export function RedemptionStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const key = KEYS[status];
  return (
    <Tag color={COLORS[status] ?? 'default'}>
      {key ? t(`redemption.status.${key}`) : t('redemption.status.unknown')}
    </Tag>
  );
}
