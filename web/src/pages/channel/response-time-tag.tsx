import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatResponseTime, responseTimeColor } from '../../lib/response-time';
import { formatTimestamp } from '../../lib/time';

/** Last test latency in seconds, coloured by the spec's thresholds; 0 shows 'not tested' in grey. */
export function ResponseTimeTag({ milliseconds, testTime }: { milliseconds: number; testTime: number }) {
  const { t } = useTranslation();
  const text = milliseconds
    ? t('channel.responseTime.seconds', { seconds: formatResponseTime(milliseconds) })
    : t('channel.responseTime.untested');
  const tag = <Tag color={responseTimeColor(milliseconds)}>{text}</Tag>;
  if (!testTime) return tag;
  return <Tooltip title={t('channel.responseTime.testedAt', { time: formatTimestamp(testTime) })}>{tag}</Tooltip>;
}
