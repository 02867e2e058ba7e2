import { GithubOutlined, LockOutlined, SendOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { Alert, Button, Divider, Flex, Form, Input, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { wechatLogin } from '../../api/oauth';
import { login } from '../../api/user';
import { AuthCard } from '../../components/auth-card/auth-card';
import { useSystemBrand } from '../../components/header/use-system-brand';
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
  const expired = searchParams.has('expired');

  // The server no longer knows this session: forget the stored user.
  useEffect(() => {
    if (expired) signOut();
  }, [expired]);

  const submit = async ({ username, password }: LoginValues) => {
    setBusy(true);
    try {
      const user = await login(username.trim(), password);
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
      <Form<LoginValues> layout="vertical" size="large" onFinish={(values) => void submit(values)} requiredMark={false}>
        <Form.Item
          name="username"
          label={t('login.form.username')}
          rules={[{ required: true, whitespace: true, message: t('login.form.usernameRequired') }]}
        >
          <Input prefix={<UserOutlined />} placeholder={t('login.form.usernamePlaceholder')} autoComplete="username" autoFocus />
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
      </Form>
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
