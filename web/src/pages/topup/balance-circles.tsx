import { Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface BalanceCirclesProps {
  used: number;
  remaining: number;
  renderQuota: (quota: number) => string;
  /** True for the 3 s after a successful redeem. */
  enlarged: boolean;
}

/** Width of antd's circle (its default size), in which the amount must fit. */
const CIRCLE_PX = 120;

/**
 * An amount inside a circle: the type shrinks as the text grows (digits are about 0.6 em wide, with a margin
 * for the ring), so '$123456789.00' stays inside instead of spilling over the ring; the full text is its title.
 */
function RingAmount({ text }: { text: string }) {
  const fontSize = Math.min(24, Math.floor((CIRCLE_PX * 0.75) / (0.6 * Math.max(text.length, 1))));
  return (
    <span title={text} style={{ fontSize, whiteSpace: 'nowrap' }} className="ring-amount">
      {text}
    </span>
  );
}

/** Two circles: total consumed and total remaining. */
export function BalanceCircles({ used, remaining, renderQuota, enlarged }: BalanceCirclesProps) {
  const { t } = useTranslation();
  const total = used + remaining;
  const remainingPercent = total > 0 ? Math.round((remaining / total) * 100) : 100;
  const style = { transition: 'transform 0.5s ease', transform: enlarged ? 'scale(1.15)' : 'scale(1)' };
  return (
    <Flex gap={32} justify="center" wrap style={{ margin: '16px 0' }}>
      <Flex vertical align="center" gap={8} style={style} data-testid="consumed-circle">
        <Progress
          type="circle"
          percent={100 - remainingPercent}
          status="normal"
          aria-label={t('topup.consumed')}
          format={() => <RingAmount text={renderQuota(used)} />}
        />
        <Typography.Text>{t('topup.consumed')}</Typography.Text>
      </Flex>
      <Flex vertical align="center" gap={8} style={style} data-testid="remaining-circle">
        <Progress
          type="circle"
          percent={remainingPercent}
          strokeColor="#52c41a"
          aria-label={t('topup.remaining')}
          format={() => <RingAmount text={renderQuota(remaining)} />}
        />
        <Typography.Text>{t('topup.remaining')}</Typography.Text>
      </Flex>
    </Flex>
  );
}
