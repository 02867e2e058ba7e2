import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { confirmPasswordReset } from '../../api/user';
import { AuthCard } from '../../components/auth-card/auth-card';
import { copyText } from '../../lib/clipboard';
import { notify } from '../../lib/notify';

/** Password reset confirmation (/user/reset?email=&token=): shows and copies the new password. */
export default function ResetConfirmPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email') ?? '';
  const token = searchParams.get('token') ?? '';
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const copyPassword = async (password: string) => {
    if (await copyText(password)) notify.success(t('reset.confirm.copied'));
    else notify.error(t('common.copyFailed'));
  };

  const submit = async () => {
    if (!email || !token) return;
    setBusy(true);
    try {
      const password = await confirmPasswordReset(email, token);
      setNewPassword(password);
      await copyPassword(password);
    } catch {
      // shown by the common handler
    } finally {
      setBusy(false);
    }
  };

  const done = newPassword !== '';
  return (
    <AuthCard title={t('reset.confirm.title')}>
      <Form layout="vertical" size="large" onFinish={() => void submit()}>
        <Form.Item label={t('reset.form.email')}>
          <Input value={email} readOnly aria-label={t('reset.form.email')} />
        </Form.Item>
        {done ? (
          <Form.Item label={t('reset.confirm.newPassword')} extra={t('reset.confirm.clickToCopy')}>
            <Input
              value={newPassword}
              readOnly
              data-testid="new-password"
              aria-label={t('reset.confirm.newPassword')}
              onClick={() => void copyPassword(newPassword)}
              style={{ cursor: 'copy' }}
            />
          </Form.Item>
        ) : null}
        <Button type="primary" htmlType="submit" block loading={busy} disabled={done || !email || !token}>
          {done ? t('reset.confirm.done') : t('reset.confirm.submit')}
        </Button>
      </Form>
    </AuthCard>
  );
}
