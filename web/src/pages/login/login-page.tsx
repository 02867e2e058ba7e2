import {
  GithubOutlined,
  KeyOutlined,
  LockOutlined,
  SafetyCertificateOutlined,
  SendOutlined,
  UserOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import { Alert, Button, Divider, Flex, Form, Input, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { wechatLogin } from '../../api/oauth';
import type { SessionUser } from '../../api/types';
import { login, loginWithPasskey } from '../../api/user';
import { AuthCard } from '../../components/auth-card/auth-card';
import { useSystemBrand } from '../../components/header/use-system-brand';
import { notifyPasskeyFailure } from '../setting/security/passkeys-card';
import { WechatCodeModal } from '../../components/wechat-modal/wechat-code-modal';
import { useThirdPartySignIn } from '../../hooks/use-third-party-sign-in';
import { DEFAULT_ROOT_PASSWORD } from '../../lib/limits';
import { notify } from '../../lib/notify';
import { useStatus } from '../../stores/status.store';
import { signIn, signOut } from '../../stores/user.store';

interface LoginValues {
  username: string;
  password: string;
}

/** Signs in; null when the account has a second factor and the code is still to come (decision 0030). */
async function signInWith(credentials: LoginValues & { totp_code?: string }): Promise<SessionUser | null> {
  // A third-party sign-in waiting for the code (no password here): the code alone completes it.
  const envelope = await login(credentials.username ? credentials : { totp_code: credentials.totp_code });
  if (envelope.success) return envelope.data as SessionUser;
  const data = envelope.data as { require_2fa?: boolean } | null;
  if (data?.require_2fa && !credentials.totp_code) return null;
  notify.error(envelope.message);
  throw new Error(envelope.message);
}

/** Sign-in (/login). */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const status = useStatus();
  const { systemName } = useSystemBrand();
  const thirdParty = useThirdPartySignIn();
  const [busy, setBusy] = useState(false);
  const [wechatOpen, setWechatOpen] = useState(false);
  // The password was right and the account asks for its second factor: the form asks for the code.
  const [pending, setPending] = useState<LoginValues | null>(() =>
    searchParams.has('second_factor') ? { username: '', password: '' } : null,
  );
  const [lastValues, setLastValues] = useState<LoginValues | undefined>(undefined);
  const expired = searchParams.has('expired');

  // The server no longer knows this session: forget the stored user.
  useEffect(() => {
    if (expired) signOut();
  }, [expired]);

  const submit = async ({ username, password }: LoginValues, code?: string) => {
    setBusy(true);
    try {
      const user = await signInWith({
        username: username.trim(),
        password,
        ...(code ? { totp_code: code.trim() } : {}),
      });
      if (!user) {
        setLastValues({ username, password });
        setPending({ username, password });
        return;
      }
      signIn(user);
      notify.success(t('login.success'));
      if (username.trim() === 'root' && password === DEFAULT_ROOT_PASSWORD) {
        notify.warning(t('login.defaultPasswordWarning'));
        navigate('/user/edit');
      } else {
        navigate('/token');
      }
    } catch {
      // the common handler has shown why
    } finally {
      setBusy(false);
    }
  };

  // A passkey verifies its user on the device: it signs in with no password and no second-factor code.
  const submitPasskey = async () => {
    setBusy(true);
    try {
      signIn(await loginWithPasskey());
      notify.success(t('login.success'));
      navigate('/token');
    } catch (error) {
      notifyPasskeyFailure(error, t('login.passkeyFailed'));
    } finally {
      setBusy(false);
    }
  };

  const submitWechat = async (code: string) => {
    try {
      const user = await wechatLogin(code);
      signIn(user);
      setWechatOpen(false);
      notify.success(t('login.success'));
      navigate('/');
    } catch {
      // shown by the common handler
    }
  };

  const showGithub = !!status.github_oauth;
  const showWechat = !!status.wechat_login;
  const showLark = !!status.lark_client_id;

  return (
    <AuthCard title={t('login.title', { name: systemName })}>
      {expired ? <Alert type="warning" showIcon title={t('login.expired')} style={{ marginBottom: 16 }} /> : null}
      {pending ? (
        <Form<{ code: string }>
          layout="vertical"
          size="large"
          onFinish={({ code }) => void submit(pending, code)}
          requiredMark={false}
        >
          <Typography.Paragraph>
            <strong>{t('login.twoFactor.title')}</strong>
            <br />
            {t('login.twoFactor.hint')}
          </Typography.Paragraph>
          <Form.Item
            name="code"
            label={t('login.twoFactor.code')}
            rules={[{ required: true, whitespace: true, message: t('login.twoFactor.codeRequired') }]}
          >
            <Input prefix={<SafetyCertificateOutlined />} autoComplete="one-time-code" maxLength={64} autoFocus />
          </Form.Item>
          <Flex gap={8}>
            <Button onClick={() => setPending(null)}>{t('login.twoFactor.back')}</Button>
            <Button type="primary" htmlType="submit" block loading={busy}>
              {t('login.submit')}
            </Button>
          </Flex>
        </Form>
      ) : (
        <Form<LoginValues>
          layout="vertical"
          size="large"
          onFinish={(values) => void submit(values)}
          requiredMark={false}
          initialValues={lastValues}
        >
          <Form.Item
            name="username"
            label={t('login.form.username')}
            rules={[{ required: true, whitespace: true, message: t('login.form.usernameRequired') }]}
          >
            <Input
              prefix={<UserOutlined />}
              placeholder={t('login.form.usernamePlaceholder')}
              autoComplete="username"
              autoFocus
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('login.form.password')}
            rules={[{ required: true, message: t('login.form.passwordRequired') }]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('login.form.passwordPlaceholder')}
              autoComplete="current-password"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('login.submit')}
          </Button>
          <Button
            icon={<KeyOutlined />}
            block
            style={{ marginTop: 12 }}
            disabled={busy}
            onClick={() => void submitPasskey()}
          >
            {t('login.passkey')}
          </Button>
        </Form>
      )}
      <Flex justify="space-between" wrap gap={8} style={{ marginTop: 16 }}>
        <Typography.Text>
          {t('login.forgot')} <Link to="/reset">{t('login.resetLink')}</Link>
        </Typography.Text>
        <Typography.Text>
          {t('login.noAccount')} <Link to="/register">{t('login.registerLink')}</Link>
        </Typography.Text>
      </Flex>
      {showGithub || showWechat || showLark ? (
        <>
          <Divider plain>{t('login.otherMethods')}</Divider>
          <Flex justify="center" gap={16}>
            {showGithub ? (
              <Tooltip title={t('login.github')}>
                <Button
                  shape="circle"
                  size="large"
                  icon={<GithubOutlined />}
                  aria-label={t('login.github')}
                  onClick={() => void thirdParty.github()}
                />
              </Tooltip>
            ) : null}
            {showWechat ? (
              <Tooltip title={t('login.wechat')}>
                <Button
                  shape="circle"
                  size="large"
                  icon={<WechatOutlined />}
                  aria-label={t('login.wechat')}
                  onClick={() => setWechatOpen(true)}
                />
              </Tooltip>
            ) : null}
            {showLark ? (
              <Tooltip title={t('login.lark')}>
                <Button
                  shape="circle"
                  size="large"
                  icon={<SendOutlined />}
                  aria-label={t('login.lark')}
                  onClick={() => void thirdParty.lark()}
                />
              </Tooltip>
            ) : null}
          </Flex>
        </>
      ) : null}
      <WechatCodeModal
        open={wechatOpen}
        title={t('login.wechatTitle')}
        qrCodeUrl={status.wechat_qrcode}
        onCancel={() => setWechatOpen(false)}
        onSubmit={submitWechat}
      />
    </AuthCard>
  );
}
