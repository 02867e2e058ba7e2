import { LockOutlined, MailOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { register, sendVerificationCode } from '../../api/user';
import { AuthCard } from '../../components/auth-card/auth-card';
import { TurnstileWidget } from '../../components/turnstile/turnstile-widget';
import { useCountdown } from '../../hooks/use-countdown';
import { MIN_PASSWORD_LENGTH, RESEND_SECONDS } from '../../lib/limits';
import { keepInviteCode } from '../../lib/invite-code';
import { notify } from '../../lib/notify';
import { StorageKey } from '../../lib/storage-keys';
import { useStatus } from '../../stores/status.store';

interface RegisterValues {
  username: string;
  password: string;
  password2: string;
  email?: string;
  verification_code?: string;
}

/** Registration (/register); an invite code in ?aff= is kept in local storage. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const status = useStatus();
  const [form] = Form.useForm<RegisterValues>();
  const [turnstileToken, setTurnstileToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const countdown = useCountdown(RESEND_SECONDS);
  const turnstileOn = !!status.turnstile_check;
  const emailVerification = !!status.email_verification;

  useEffect(() => keepInviteCode(searchParams.get('aff')), [searchParams]);

  const botCheckPending = () => {
    if (turnstileOn && !turnstileToken) {
      notify.info(t('common.turnstilePending'));
      return true;
    }
    return false;
  };

  const requestCode = async () => {
    const email = (form.getFieldValue('email') as string | undefined)?.trim() ?? '';
    if (!email || botCheckPending()) return;
    setSending(true);
    try {
      await sendVerificationCode(email, turnstileToken);
      notify.success(t('common.codeSent'));
      countdown.start();
    } catch {
      // shown by the common handler
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: RegisterValues) => {
    if (botCheckPending()) return;
    setBusy(true);
    try {
      await register(
        {
          username: values.username.trim(),
          password: values.password,
          password2: values.password2,
          email: values.email?.trim() ?? '',
          verification_code: values.verification_code?.trim() ?? '',
          aff_code: localStorage.getItem(StorageKey.aff) ?? '',
        },
        turnstileToken,
      );
      notify.success(t('register.success'));
      navigate('/login');
    } catch {
      // shown by the common handler
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={t('register.title')}>
      <Form<RegisterValues>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name="username"
          label={t('register.form.username')}
          rules={[{ required: true, whitespace: true, message: t('register.form.usernameRequired') }]}
        >
          <Input
            prefix={<UserOutlined />}
            placeholder={t('register.form.usernamePlaceholder')}
            autoComplete="username"
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('register.form.password')}
          rules={[
            { required: true, message: t('register.form.passwordRequired') },
            { min: MIN_PASSWORD_LENGTH, message: t('register.passwordTooShort') },
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('register.form.passwordPlaceholder')}
            autoComplete="new-password"
          />
        </Form.Item>
        <Form.Item
          name="password2"
          label={t('register.form.password2')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('register.form.password2Required') },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('register.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('register.form.password2Placeholder')}
            autoComplete="new-password"
          />
        </Form.Item>
        {emailVerification ? (
          <>
            <Form.Item label={t('register.form.email')} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item
                  name="email"
                  noStyle
                  rules={[{ required: true, type: 'email', message: t('register.form.emailInvalid') }]}
                >
                  <Input
                    prefix={<MailOutlined />}
                    placeholder={t('register.form.emailPlaceholder')}
                    autoComplete="email"
                  />
                </Form.Item>
                <Button onClick={() => void requestCode()} disabled={countdown.active} loading={sending}>
                  {countdown.active ? t('common.retryIn', { seconds: countdown.remaining }) : t('register.getCode')}
                </Button>
              </Space.Compact>
            </Form.Item>
            <Form.Item
              name="verification_code"
              label={t('register.form.code')}
              rules={[{ required: true, whitespace: true, message: t('register.form.codeRequired') }]}
            >
              <Input prefix={<SafetyOutlined />} placeholder={t('register.form.codePlaceholder')} />
            </Form.Item>
          </>
        ) : null}
        {turnstileOn && status.turnstile_site_key ? (
          <Form.Item>
            <TurnstileWidget siteKey={status.turnstile_site_key} onVerify={setTurnstileToken} />
          </Form.Item>
        ) : null}
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('register.submit')}
        </Button>
      </Form>
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Typography.Text>
          {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
        </Typography.Text>
      </Flex>
    </AuthCard>
  );
}
