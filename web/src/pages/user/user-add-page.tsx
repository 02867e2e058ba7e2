import { Button, Card, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createUser } from '../../api/user-admin';
import { PageHeading } from '../../components/page-heading/page-heading';
import { MIN_PASSWORD_LENGTH } from '../../lib/limits';
import { notify } from '../../lib/notify';

interface AddUserValues {
  username: string;
  display_name: string;
  password: string;
}

/** Create a user (/user/add, admin). */
export default function UserAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<AddUserValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: AddUserValues) => {
    const username = (values.username ?? '').trim();
    if (!username || !values.password) return;
    setSaving(true);
    try {
      await createUser({ username, display_name: (values.display_name ?? '').trim(), password: values.password });
      notify.success(t('user.toast.created'));
      form.resetFields();
    } catch {
      // shown by the common handler
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <PageHeading title={t('user.add.title')} />
      <Card>
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item name="username" label={t('user.form.username')} required>
            <Input placeholder={t('user.form.usernamePlaceholder')} autoComplete="off" />
          </Form.Item>
          <Form.Item name="display_name" label={t('user.form.displayName')}>
            <Input placeholder={t('user.form.displayNamePlaceholder')} autoComplete="off" />
          </Form.Item>
          <Form.Item name="password" label={t('user.form.password')} required>
            <Input.Password
              placeholder={t('user.form.passwordHint', { min: MIN_PASSWORD_LENGTH })}
              autoComplete="new-password"
            />
          </Form.Item>
          <Flex gap={8}>
            <Button onClick={() => navigate('/user')}>{t('common.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={saving}>
              {t('common.submit')}
            </Button>
          </Flex>
        </Form>
      </Card>
    </>
  );
}
