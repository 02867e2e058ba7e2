import {
  DeleteOutlined,
  GithubOutlined,
  KeyOutlined,
  LinkOutlined,
  MailOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import { Alert, Button, Card, Col, Flex, Form, Input, Row, Skeleton, Statistic, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { wechatBind } from '../../api/oauth';
import type { User } from '../../api/types';
import { deleteSelf, fetchAffCode, fetchSelf, generateAccessToken, logout, updateSelf } from '../../api/user';
import { WechatCodeModal } from '../../components/wechat-modal/wechat-code-modal';
import { useRenderQuota } from '../../hooks/use-quota';
import { useThirdPartySignIn } from '../../hooks/use-third-party-sign-in';
import { copyText } from '../../lib/clipboard';
import { MIN_PASSWORD_LENGTH } from '../../lib/limits';
import { notify } from '../../lib/notify';
import { useStatus } from '../../stores/status.store';
import { signIn, signOut, useUser } from '../../stores/user.store';
import { BindEmailModal } from './bind-email-modal';
import { DeleteAccountModal } from './delete-account-modal';
import { invitationLink } from './invitation-link';
import { PasskeysCard } from './security/passkeys-card';
import { SessionsCard } from './security/sessions-card';
import { TwoFactorCard } from './security/two-factor-card';

interface ProfileValues {
  username: string;
  display_name: string;
  password: string;
  original_password?: string;
}

type OpenModal = 'email' | 'wechat' | 'delete' | null;

/**
 * The personal settings tab: quota, profile, access token, invitation link, bindings, two-factor
 * authentication, signed-in devices, self-deletion.
 */
export function PersonalSetting() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useStatus();
  const sessionUser = useUser();
  const renderQuota = useRenderQuota();
  const thirdParty = useThirdPartySignIn();
  const [form] = Form.useForm<ProfileValues>();
  const newPassword = Form.useWatch('password', form);
  const [self, setSelf] = useState<User | null>(null);
  const [saving, setSaving] = useState(false);
  const [accessToken, setAccessToken] = useState('');
  const [modal, setModal] = useState<OpenModal>(null);

  const load = useCallback(async () => {
    try {
      const user = await fetchSelf();
      setSelf(user);
      // The password fields start empty; leaving them alone keeps what the user typed while this loaded.
      form.setFieldsValue({ username: user.username, display_name: user.display_name });
    } catch {
      // shown by the common handler
    }
  }, [form]);

  useEffect(() => {
    void load();
  }, [load]);

  const save = async (values: ProfileValues) => {
    setSaving(true);
    try {
      await updateSelf({
        username: values.username.trim(),
        display_name: values.display_name.trim(),
        password: values.password,
        ...(values.password ? { original_password: values.original_password ?? '' } : {}),
      });
      notify.success(t('setting.personal.updated'));
      if (sessionUser)
        signIn({ ...sessionUser, username: values.username.trim(), display_name: values.display_name.trim() });
      form.setFieldsValue({ password: '', original_password: '' });
    } catch {
      // shown by the common handler
    } finally {
      setSaving(false);
    }
  };

  const generateToken = async () => {
    try {
      const token = await generateAccessToken();
      setAccessToken(token);
      if (await copyText(token)) notify.success(t('setting.personal.tokenCopied'));
      else notify.error(t('common.copyFailed'));
    } catch {
      // shown by the common handler
    }
  };

  const copyInvitation = async () => {
    try {
      const link = invitationLink(window.location.origin, await fetchAffCode());
      if (await copyText(link)) notify.success(t('setting.personal.invitationCopied'));
      else notify.error(t('common.copyFailed'));
    } catch {
      // shown by the common handler
    }
  };

  const bindWechat = async (code: string) => {
    try {
      await wechatBind(code);
      notify.success(t('setting.personal.wechatBound'));
      setModal(null);
      void load();
    } catch {
      // shown by the common handler
    }
  };

  const deleteAccount = async () => {
    await deleteSelf();
    // The account is gone, so the session is too; a failed logout call changes nothing.
    await logout().catch(() => undefined);
    notify.success(t('setting.personal.deleted'));
    signOut();
    navigate('/login');
  };

  const notBound = t('setting.personal.notBound');
  return (
    <Flex vertical gap={16}>
      <Card>
        {self ? (
          <Row gutter={[16, 16]}>
            <Col xs={24} sm={8}>
              <Statistic title={t('setting.personal.quota')} value={renderQuota(self.quota ?? 0)} />
            </Col>
            <Col xs={12} sm={8}>
              <Statistic title={t('setting.personal.usedQuota')} value={renderQuota(self.used_quota ?? 0)} />
            </Col>
            <Col xs={12} sm={8}>
              <Statistic title={t('setting.personal.requestCount')} value={self.request_count ?? 0} />
            </Col>
          </Row>
        ) : (
          <Skeleton active paragraph={{ rows: 1 }} title={false} style={{ minHeight: 62 }} />
        )}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card title={t('setting.personal.profile')}>
            <Form<ProfileValues> form={form} layout="vertical" onFinish={(values) => void save(values)}>
              <Form.Item
                name="username"
                label={t('setting.personal.username')}
                rules={[{ required: true, whitespace: true, message: t('setting.personal.usernameRequired') }]}
              >
                <Input autoComplete="username" />
              </Form.Item>
              <Form.Item name="display_name" label={t('setting.personal.displayName')}>
                <Input />
              </Form.Item>
              <Form.Item
                name="password"
                label={t('setting.personal.password')}
                rules={[{ min: MIN_PASSWORD_LENGTH, message: t('register.passwordTooShort') }]}
              >
                <Input.Password placeholder={t('setting.personal.passwordPlaceholder')} autoComplete="new-password" />
              </Form.Item>
              {newPassword ? (
                <Form.Item
                  name="original_password"
                  label={t('setting.personal.originalPassword')}
                  rules={[{ required: true, message: t('setting.personal.originalPasswordRequired') }]}
                >
                  <Input.Password autoComplete="current-password" />
                </Form.Item>
              ) : null}
              <Form.Item label={t('setting.personal.github')}>
                <Input value={self?.github_id || ''} placeholder={notBound} readOnly />
              </Form.Item>
              <Form.Item label={t('setting.personal.wechat')}>
                <Input value={self?.wechat_id || ''} placeholder={notBound} readOnly />
              </Form.Item>
              <Form.Item label={t('setting.personal.email')}>
                <Input value={self?.email || ''} placeholder={notBound} readOnly data-testid="bound-email" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={saving}>
                {t('common.submit')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Flex vertical gap={16}>
            <Card title={t('setting.personal.accessToken')}>
              <Typography.Paragraph type="secondary">{t('setting.personal.accessTokenHint')}</Typography.Paragraph>
              {accessToken ? (
                <Alert
                  type="success"
                  style={{ marginBottom: 12 }}
                  title={
                    <Typography.Text copyable={{ text: accessToken }} code data-testid="access-token">
                      {accessToken}
                    </Typography.Text>
                  }
                />
              ) : null}
              <Flex wrap gap={8}>
                <Button icon={<KeyOutlined />} onClick={() => void generateToken()}>
                  {t('setting.personal.generateToken')}
                </Button>
                <Button icon={<LinkOutlined />} onClick={() => void copyInvitation()}>
                  {t('setting.personal.copyInvitation')}
                </Button>
              </Flex>
            </Card>
            <Card title={t('setting.personal.bindings')}>
              <Flex wrap gap={8}>
                <Button icon={<MailOutlined />} onClick={() => setModal('email')}>
                  {t('setting.personal.bindEmail')}
                </Button>
                {status.wechat_login ? (
                  <Button icon={<WechatOutlined />} onClick={() => setModal('wechat')}>
                    {t('setting.personal.bindWechat')}
                  </Button>
                ) : null}
                {status.github_oauth ? (
                  <Button icon={<GithubOutlined />} onClick={() => void thirdParty.github()}>
                    {t('setting.personal.bindGithub')}
                  </Button>
                ) : null}
                {status.lark_client_id ? (
                  <Button onClick={() => void thirdParty.lark()}>{t('setting.personal.bindLark')}</Button>
                ) : null}
              </Flex>
            </Card>
            <TwoFactorCard />
            <PasskeysCard />
            <Card title={t('setting.personal.dangerZone')}>
              <Button danger icon={<DeleteOutlined />} onClick={() => setModal('delete')}>
                {t('setting.personal.deleteAccount')}
              </Button>
            </Card>
          </Flex>
        </Col>
      </Row>
      <SessionsCard />
      <BindEmailModal
        open={modal === 'email'}
        onClose={() => setModal(null)}
        onBound={(email) => setSelf((current) => (current ? { ...current, email } : current))}
      />
      <WechatCodeModal
        open={modal === 'wechat'}
        title={t('setting.personal.bindWechat')}
        qrCodeUrl={status.wechat_qrcode}
        onCancel={() => setModal(null)}
        onSubmit={bindWechat}
      />
      <DeleteAccountModal
        open={modal === 'delete'}
        username={self?.username ?? sessionUser?.username ?? ''}
        onClose={() => setModal(null)}
        onConfirm={deleteAccount}
      />
    </Flex>
  );
}
