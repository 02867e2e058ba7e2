import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Input } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../api/types';
import { fetchSelf, redeemTopUpCode } from '../../api/user';
import { PageHeading } from '../../components/page-heading/page-heading';
import { useRenderQuota } from '../../hooks/use-quota';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { useStatus } from '../../stores/status.store';
import { BalanceCircles } from './balance-circles';
import { BudgetLine } from './budget-line';

/** How long the circles stay enlarged after a redeem. */
export const ENLARGE_MS = 3000;

/** Top-up (/topup): redeem a code, open the top-up link, see consumed and remaining amounts. */
export default function TopUpPage() {
  const { t } = useTranslation();
  const status = useStatus();
  const renderQuota = useRenderQuota();
  const [code, setCode] = useState('');
  const queryClient = useQueryClient();
  const selfKey = queryKeys.record('user', 'self');
  const self = useQuery({ queryKey: selfKey, queryFn: fetchSelf });
  const balance = { used: self.data?.used_quota ?? 0, remaining: self.data?.quota ?? 0 };
  const [added, setAdded] = useState<number | null>(null);
  const [enlarged, setEnlarged] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const redeeming = useMutation({
    mutationFn: redeemTopUpCode,
    onSuccess: (amount) => {
      notify.success(t('topup.success'));
      // The server answers the amount added, so the cached balance is updated without reading it again.
      queryClient.setQueryData<User>(selfKey, (user) => user && { ...user, quota: (user.quota ?? 0) + amount });
      setAdded(amount);
      setCode('');
      setEnlarged(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setEnlarged(false), ENLARGE_MS);
    },
  });

  const redeem = () => {
    const key = code.trim();
    if (key) redeeming.mutate(key);
    else notify.info(t('topup.codeRequired'));
  };

  const openTopUpLink = () => {
    if (!status.top_up_link) {
      notify.warning(t('topup.linkMissing'));
      return;
    }
    window.open(status.top_up_link, '_blank', 'noopener');
  };

  return (
    <>
      <PageHeading title={t('topup.title')} />
      <Card>
        <BalanceCircles
          used={balance.used}
          remaining={balance.remaining}
          renderQuota={renderQuota}
          enlarged={enlarged}
        />
        <BudgetLine renderQuota={renderQuota} />
        {added !== null && (
          <Alert
            style={{ marginBottom: 16 }}
            type="success"
            showIcon
            closable
            onClose={() => setAdded(null)}
            title={t('topup.confirm', { amount: renderQuota(added), balance: renderQuota(balance.remaining) })}
          />
        )}
        <Flex vertical gap={12} style={{ maxWidth: 480, margin: '0 auto' }}>
          <Input
            value={code}
            onChange={(event) => setCode(event.target.value)}
            placeholder={t('topup.codePlaceholder')}
            aria-label={t('topup.codePlaceholder')}
            onPressEnter={redeem}
          />
          <Flex gap={8} wrap>
            <Button onClick={openTopUpLink}>{t('topup.buy')}</Button>
            <Button type="primary" loading={redeeming.isPending} onClick={redeem}>
              {t('topup.redeem')}
            </Button>
          </Flex>
        </Flex>
      </Card>
    </>
  );
}
