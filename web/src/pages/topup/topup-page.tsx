import { Alert, Button, Card, Flex, Input } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSelf, redeemTopUpCode } from '../../api/user';
import { PageHeading } from '../../components/page-heading/page-heading';
import { useRenderQuota } from '../../hooks/use-quota';
import { notify } from '../../lib/notify';
import { useStatus } from '../../stores/status.store';
import { BalanceCircles } from './balance-circles';

/** How long the circles stay enlarged after a redeem. */
export const ENLARGE_MS = 3000;

/** Top-up (/topup): redeem a code, open the top-up link, see consumed and remaining amounts. */
export default function TopUpPage() {
  const { t } = useTranslation();
  const status = useStatus();
  const renderQuota = useRenderQuota();
  const [code, setCode] = useState('');
  const [balance, setBalance] = useState({ used: 0, remaining: 0 });
  const [redeeming, setRedeeming] = useState(false);
  const [added, setAdded] = useState<number | null>(null);
  const [enlarged, setEnlarged] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    fetchSelf().then(
      (user) => setBalance({ used: user.used_quota ?? 0, remaining: user.quota ?? 0 }),
      () => undefined,
    );
    return () => clearTimeout(timer.current);
  }, []);

  const redeem = async () => {
    const key = code.trim();
    if (!key) {
      notify.info(t('topup.codeRequired'));
      return;
    }
    setRedeeming(true);
    try {
      const amount = await redeemTopUpCode(key);
      notify.success(t('topup.success'));
      setBalance((current) => ({ ...current, remaining: current.remaining + amount }));
      setAdded(amount);
      setCode('');
      setEnlarged(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setEnlarged(false), ENLARGE_MS);
    } catch {
      // shown by the common handler
    } finally {
      setRedeeming(false);
    }
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
            onPressEnter={() => void redeem()}
          />
          <Flex gap={8} wrap>
            <Button onClick={openTopUpLink}>{t('topup.buy')}</Button>
            <Button type="primary" loading={redeeming} onClick={() => void redeem()}>
              {t('topup.redeem')}
            </Button>
          </Flex>
        </Flex>
      </Card>
    </>
  );
}
