import { Form, Input, InputNumber, Select } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileUpdate } from '../../api/types';
import { fetchSelf, updateSelf } from '../../api/user';
import { fetchUser, updateUser } from '../../api/user-admin';
import { EditPage } from '../../components/edit-page/edit-page';
import { useRecordEditor, useRecordId } from '../../components/edit-page/use-record-editor';
import { useGroups } from '../../hooks/use-groups';
import { useRenderQuota } from '../../hooks/use-quota';
import { MIN_PASSWORD_LENGTH } from '../../lib/limits';
import { notify } from '../../lib/notify';
import { useUser } from '../../stores/user.store';
import { LimitFields } from '../shared/limit-fields';

interface EditUserValues {
  username: string;
  display_name: string;
  password: string;
  original_password?: string;
  group: string;
  quota: number;
  /** Issue 31: the user's limits (0 or empty = none) and budget per period ('' = no budget); admins set them. */
  rpm_limit?: number | null;
  tpm_limit?: number | null;
  concurrency_limit?: number | null;
  budget_quota?: number | null;
  budget_period?: '' | 'day' | 'week' | 'month';
}

/** Edit a user: another one by id (admin, with group and quota) or oneself (/user/edit). */
export default function UserEditPage() {
  const { t } = useTranslation();
  const userId = useRecordId();
  const asAdmin = userId > 0;
  const renderQuota = useRenderQuota();
  const sessionUser = useUser();
  // Changing one's own password (also root through the admin form) needs the current one.
  const ownAccount = !asAdmin || sessionUser?.id === userId;
  // The quota the form was filled with: sent as original_quota, so a save moves the balance by what the admin
  // typed and keeps the charges made while the page was open (issue 29).
  const loadedQuota = useRef(0);
  const editor = useRecordEditor({
    resource: 'user',
    record: asAdmin ? { id: userId, load: () => fetchUser(userId) } : { id: 'self', load: fetchSelf },
    toForm: (row): Partial<EditUserValues> => {
      loadedQuota.current = row.quota ?? 0;
      return { ...row, password: '', group: row.group || 'default', quota: loadedQuota.current };
    },
    save: (profile: ProfileUpdate & Partial<Omit<EditUserValues, 'username' | 'display_name' | 'password'>>) =>
      asAdmin
        ? updateUser({ ...profile, id: Math.trunc(userId), original_quota: loadedQuota.current })
        : updateSelf(profile).then(() => undefined),
    onSaved: (saved, _profile, form) => {
      notify.success(t('user.toast.updated'));
      // The balance as it now is (charges included) is the next save's starting point.
      if (saved?.quota !== undefined) {
        loadedQuota.current = saved.quota;
        form.setFieldValue('quota', saved.quota);
      }
    },
  });
  const user = editor.record;
  const quota = Form.useWatch('quota', editor.form);
  const newPassword = Form.useWatch('password', editor.form);
  const groups = useGroups(asAdmin);

  const submit = (values: EditUserValues) => {
    const profile = {
      username: values.username.trim(),
      display_name: (values.display_name ?? '').trim(),
      password: values.password ?? '',
      ...(values.password && ownAccount ? { original_password: values.original_password ?? '' } : {}),
    };
    const whole = (value: number | null | undefined) => Math.max(0, Math.trunc(Number(value) || 0));
    const limits = {
      rpm_limit: whole(values.rpm_limit),
      tpm_limit: whole(values.tpm_limit),
      concurrency_limit: whole(values.concurrency_limit),
      budget_quota: whole(values.budget_quota),
      budget_period: values.budget_period ?? '',
    };
    editor.save(
      asAdmin ? { ...profile, group: values.group, quota: Math.trunc(Number(values.quota) || 0), ...limits } : profile,
    );
  };

  const groupOptions = [...new Set([...(user?.group ? [user.group] : []), ...groups])].map((name) => ({
    value: name,
    label: name,
  }));
  return (
    <EditPage
      title={t(asAdmin ? 'user.edit.title' : 'user.edit.selfTitle')}
      editor={editor}
      onFinish={submit}
      backTo="/setting"
    >
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
            <InputNumber min={Math.min(0, loadedQuota.current)} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item label={t('user.form.limits')} extra={t('user.form.limitsHint')}>
            <LimitFields />
          </Form.Item>
        </>
      )}
      <Form.Item label={t('user.form.github')}>
        <Input value={user?.github_id ?? ''} readOnly placeholder={t('user.form.bindHint')} />
      </Form.Item>
      <Form.Item label={t('user.form.wechat')}>
        <Input value={user?.wechat_id ?? ''} readOnly placeholder={t('user.form.bindHint')} />
      </Form.Item>
      <Form.Item label={t('user.form.email')}>
        <Input value={user?.email ?? ''} readOnly placeholder={t('user.form.bindHint')} />
      </Form.Item>
    </EditPage>
  );
}
