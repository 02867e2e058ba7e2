import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Log types of the filter and the table: 1 top-up, 2 consumption, 3 management, 4 system, 5 test. */
export const LOG_TYPES = [0, 1, 2, 3, 4, 5] as const;
const COLORS: Record<number, string> = { 1: 'cyan', 2: 'green', 3: 'orange', 4: 'purple', 5: 'blue' };

export function LogTypeTag({ type }: { type: number }) {
  const { t } = useTranslation();
  const known = type >= 1 && type <= 5;
  return <Tag color={COLORS[type] ?? 'default'}>{known ? t(`log.type.${type}`) : t('log.type.unknown')}</Tag>;
}
