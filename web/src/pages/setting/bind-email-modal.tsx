import { Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emailBind } from '../../api/oauth';
import { sendVerificationCode } from '../../api/user';
import { TurnstileWidget } from '../../components/turnstile/turnstile-widget';
import { useCountdown } from '../../hooks/use-countdown';
import { RESEND_SECONDS } from '../../lib/limits';
import { notify } from '../../lib/notify';
import { useStatus } from '../../stores/status.store';

export interface BindEmailModalProps {
  open: boolean;
  onClose: () => void;
  onBound: (email: string) => void;
}

/** Bind an email: request a code (30 s before another), then submit it. */
export function BindEmailModal({ open, onClose, onBound }: BindEmailModalProps) {
  const { t } = useTranslation();
  const status = useStatus();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [turnstileToken, setTurnstileToken] = useState('');
  const [sending, setSending] = useState(false);
  const [binding, setBinding] = useState(false);
  const countdown = useCountdown(RESEND_SECONDS);
  const turnstileOn = !!status.turnstile_check;

  const requestCode = async () => {
    const address = email.trim();
    if (!address) return;
    if (turnstileOn && !turnstileToken) {
      notify.info(t('common.turnstilePending'));
      return;
    }
    setSending(true);
    try {
      await sendVerificationCode(address, turnstileToken);
      notify.success(t('common.codeSent'));
      countdown.start();
    } catch {
      // shown by the common handler
    } finally {
      setSending(false);
    }
  };

  const bind = async () => {
    if (!code.trim()) {
      notify.error(t('setting.personal.codeRequired'));
      return;
    }
    setBinding(true);
    try {
      await emailBind(email.trim(), code.trim());
      notify.success(t('setting.personal.emailBound'));
      onBound(email.trim());
      setCode('');
      onClose();
    } catch {
      // shown by the common handler
    } finally {
      setBinding(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('setting.personal.bindEmail')}
      onCancel={onClose}
      onOk={() => void bind()}
      okText={t('setting.personal.bind')}
      cancelText={t('common.cancel')}
      confirmLoading={binding}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('setting.personal.email')}>
          <Space.Compact style={{ width: '100%' }}>
            <Input
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              placeholder={t('setting.personal.emailPlaceholder')}
              aria-label={t('setting.personal.email')}
            />
            <Button onClick={() => void requestCode()} disabled={countdown.active} loading={sending}>
              {countdown.active ? t('common.retryIn', { seconds: countdown.remaining }) : t('register.getCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item label={t('register.form.code')}>
          <Input
            value={code}
            onChange={(event) => setCode(event.target.value)}
            placeholder={t('register.form.codePlaceholder')}
            aria-label={t('register.form.code')}
          />
        </Form.Item>
        {turnstileOn && status.turnstile_site_key ? (
          <TurnstileWidget siteKey={status.turnstile_site_key} onVerify={setTurnstileToken} />
        ) : null}
      </Form>
    </Modal>
  );
}
