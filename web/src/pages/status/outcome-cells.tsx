import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OutcomeWindow } from '../../api/status-page';

/** Success rate colour: green from 99 %, gold from 90 %, red below. */
export function successRateColor(rate: number | null): string {
  if (rate === null) return 'default';
  if (rate >= 0.99) return 'green';
  if (rate >= 0.9) return 'gold';
  return 'red';
}

/** One window's figures: success rate, median latency and request count. */
export function OutcomeCell({ window }: { window: OutcomeWindow }) {
  const { t } = useTranslation();
  if (!window.requests) return <Typography.Text type="secondary">{t('status.noTraffic')}</Typography.Text>;
  return (
    <Space size={4} wrap>
      <Tag color={successRateColor(window.success_rate)}>
        {t('status.successRate', { rate: ((window.success_rate ?? 0) * 100).toFixed(1) })}
      </Tag>
      <Tag>
        {window.median_latency_ms === null
          ? '-'
          : t('status.latency', { seconds: (window.median_latency_ms / 1000).toFixed(2) })}
      </Tag>
      <Typography.Text type="secondary">{t('status.requests', { count: window.requests })}</Typography.Text>
    </Space>
  );
}
