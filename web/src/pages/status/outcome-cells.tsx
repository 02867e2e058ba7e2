import { Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { OutcomeWindow } from '../../api/status-page';

/** Success rate colour: green from 99 %, gold from 90 %, red below. */
export function successRateColor(rate: number | null): string {
  if (rate === null) return 'default';
  if (rate >= 0.99) return 'green';
  if (rate >= 0.9) return 'gold';
  return 'red';
}

/** A latency bound in the unit that reads best: milliseconds under a second, seconds from there. */
function latencyValue(t: TFunction, ms: number): string {
  return ms < 1000 ? t('status.unit.ms', { value: ms }) : t('status.unit.s', { value: ms / 1000 });
}

/**
 * The median as the histogram knows it: the bucket that holds it ("≤ 10 ms", "0.25–0.5 s", "> 64 s"), never
 * a point inside it (issue 33: a 0–250 ms bucket's midpoint read "0.13 s" for 5 ms calls).
 */
export function medianLatencyText(t: TFunction, range: OutcomeWindow['median_latency']): string {
  if (!range) return '-';
  if (range.at_most_ms === null) return t('status.latency.above', { value: latencyValue(t, range.above_ms) });
  if (range.above_ms === 0) return t('status.latency.atMost', { value: latencyValue(t, range.at_most_ms) });
  return t('status.latency.between', {
    from: latencyValue(t, range.above_ms),
    to: latencyValue(t, range.at_most_ms),
  });
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
      <Tag data-testid="median-latency">{medianLatencyText(t, window.median_latency)}</Tag>
      <Typography.Text type="secondary">{t('status.requests', { count: window.requests })}</Typography.Text>
    </Space>
  );
}
