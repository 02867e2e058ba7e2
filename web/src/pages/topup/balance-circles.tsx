import { Flex, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface BalanceCirclesProps {
  used: number;
  remaining: number;
  renderQuota: (quota: number) => string;
  /** True for the 3 s after a successful redeem. */
  enlarged: boolean;
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
        <Progress type="circle" percent={100 - remainingPercent} status="normal" format={() => renderQuota(used)} />
        <Typography.Text>{t('topup.consumed')}</Typography.Text>
      </Flex>
      <Flex vertical align="center" gap={8} style={style} data-testid="remaining-circle">
        <Progress
          type="circle"
          percent={remainingPercent}
          strokeColor="#52c41a"
          format={() => renderQuota(remaining)}
        />
        <Typography.Text>{t('topup.remaining')}</Typography.Text>
      </Flex>
    </Flex>
  );
}
