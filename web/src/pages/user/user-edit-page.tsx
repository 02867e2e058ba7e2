import { Button, Card, Flex, Form, Input, InputNumber, Select, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { fetchGroups } from '../../api/channel';
import type { User } from '../../api/types';
import { fetchSelf, updateSelf } from '../../api/user';
import { fetchUser, updateUser } from '../../api/user-admin';
import { PageHeading } from '../../components/page-heading/page-heading';
import { useRenderQuota } from '../../hooks/use-quota';
import { MIN_PASSWORD_LENGTH } from '../../lib/limits';
import { notify } from '../../lib/notify';
import { useUser } from '../../stores/user.store';

interface EditUserValues {
  username: string;
  display_name: string;
  password: string;
  original_password?: string;
  group: string;
  quota: number;
}

/** Edit a user: another one by id (admin, with group and quota) or oneself (/user/edit). */
export default function UserEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const userId = id ? Number(id) : 0;
  const asAdmin = userId > 0;
  const renderQuota = useRenderQuota();
  const [form] = Form.useForm<EditUserValues>();
  const quota = Form.useWatch('quota', form);
  const newPassword = Form.useWatch('password', form);
  const sessionUser = useUser();
  // Changing one's own password (also root through the admin form) needs the current one.
  const ownAccount = !asAdmin || sessionUser?.id === userId;
  const [user, setUser] = useState<User | null>(null);
  const [groups, setGroups] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const load = asAdmin ? fetchUser(userId) : fetchSelf();
    load
      .then((row) => {
        setUser(row);
        form.setFieldsValue({ ...row, password: '', group: row.group || 'default', quota: row.quota ?? 0 });
      })
      .catch(() => undefined);
    if (asAdmin)
      fetchGroups().then(
        (names) => setGroups(names ?? []),
        () => undefined,
      );
  }, [asAdmin, userId, form]);

  const submit = async (values: EditUserValues) => {
    setSaving(true);
    try {
      const profile = {
        username: values.username.trim(),
        display_name: (values.display_name ?? '').trim(),
        password: values.password ?? '',
        ...(values.password && ownAccount ? { original_password: values.original_password ?? '' } : {}),
      };
      if (asAdmin) {
        await updateUser({
          ...profile,
          id: Math.trunc(userId),
          group: values.group,
          quota: Math.trunc(Number(values.quota) || 0),
        });
      } else {
        await updateSelf(profile);
      }
      notify.success(t('user.toast.updated'));
    } catch {
      // shown by the common handler
    } finally {
      setSaving(false);
    }
  };

  const groupOptions = [...new Set([...(user?.group ? [user.group] : []), ...groups])].map((name) => ({
    value: name,
    label: name,
  }));
  return (
    <>
      <PageHeading title={t(asAdmin ? 'user.edit.title' : 'user.edit.selfTitle')} />
      <Card>
        {!user ? (
          <Skeleton active />
        ) : (
          <Form form={form} layout="vertical" onFinish={submit}>
            <Form.Item name="username" label={t('user.form.username')}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item name="password" label={t('user.form.password')}>
              <Input.Password
                placeholder={t('user.form.passwordKeep', { min: MIN_PASSWORD_LENGTH })}
                autoComplete="new-password"
              />
            </Form.Item>
            {newPassword && ownAccount ? (
              <Form.Item
                name="original_password"
                label={t('user.form.originalPassword')}
                rules={[{ required: true, message: t('user.form.originalPasswordRequired') }]}
              >
                <Input.Password autoComplete="current-password" />
              </Form.Item>
            ) : null}
            <Form.Item name="display_name" label={t('user.form.displayName')}>
              <Input autoComplete="off" />
            </Form.Item>
            {asAdmin && (
              <>
                <Form.Item name="group" label={t('user.form.group')} extra={t('user.form.groupHint')}>
                  <Select showSearch options={groupOptions} />
                </Form.Item>
                <Form.Item name="quota" label={t('user.form.quota', { quota: renderQuota(Number(quota) || 0) })}>
                  <InputNumber min={0} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </>
            )}
            <Form.Item label={t('user.form.github')}>
              <Input value={user.github_id ?? ''} readOnly placeholder={t('user.form.bindHint')} />
            </Form.Item>
            <Form.Item label={t('user.form.wechat')}>
              <Input value={user.wechat_id ?? ''} readOnly placeholder={t('user.form.bindHint')} />
            </Form.Item>
            <Form.Item label={t('user.form.email')}>
              <Input value={user.email ?? ''} readOnly placeholder={t('user.form.bindHint')} />
            </Form.Item>
            <Flex gap={8}>
              <Button onClick={() => navigate('/setting')}>{t('common.cancel')}</Button>
              <Button type="primary" htmlType="submit" loading={saving}>
                {t('common.submit')}
              </Button>
            </Flex>
          </Form>
        )}
      </Card>
    </>
  );
}
