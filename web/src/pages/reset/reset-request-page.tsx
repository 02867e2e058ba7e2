import { MailOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { sendResetEmail } from '../../api/user';
import { AuthCard } from '../../components/auth-card/auth-card';
import { TurnstileWidget } from '../../components/turnstile/turnstile-widget';
import { useCountdown } from '../../hooks/use-countdown';
import { RESEND_SECONDS } from '../../lib/limits';
import { notify } from '../../lib/notify';
import { useStatus } from '../../stores/status.store';

/** Password reset request (/reset). */
export default function ResetRequestPage() {
  const { t } = useTranslation();
  const status = useStatus();
  const [email, setEmail] = useState('');
  const [turnstileToken, setTurnstileToken] = useState('');
  const [busy, setBusy] = useState(false);
  const countdown = useCountdown(RESEND_SECONDS);
  const turnstileOn = !!status.turnstile_check;

  const submit = async () => {
    const address = email.trim();
    if (!address) return;
    if (turnstileOn && !turnstileToken) {
      notify.info(t('common.turnstilePending'));
      return;
    }
    countdown.start();
    setBusy(true);
    try {
      await sendResetEmail(address, turnstileToken);
      notify.success(t('reset.mailSent'));
      setEmail('');
    } catch {
      // shown by the common handler
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={t('reset.title')}>
      <Form layout="vertical" size="large" onFinish={() => void submit()}>
        <Form.Item label={t('reset.form.email')}>
          <Input
            prefix={<MailOutlined />}
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder={t('reset.form.emailPlaceholder')}
            autoComplete="email"
          />
        </Form.Item>
        {turnstileOn && status.turnstile_site_key ? (
          <Form.Item>
            <TurnstileWidget siteKey={status.turnstile_site_key} onVerify={setTurnstileToken} />
          </Form.Item>
        ) : null}
        <Button type="primary" htmlType="submit" block loading={busy} disabled={countdown.active}>
          {countdown.active ? t('common.retryIn', { seconds: countdown.remaining }) : t('reset.submit')}
        </Button>
      </Form>
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Typography.Text>
          <Link to="/login">{t('reset.backToLogin')}</Link>
        </Typography.Text>
      </Flex>
    </AuthCard>
  );
}
