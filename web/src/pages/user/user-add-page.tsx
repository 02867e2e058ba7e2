import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { createUser } from '../../api/user-admin';
import { EditPage } from '../../components/edit-page/edit-page';
import { useRecordEditor } from '../../components/edit-page/use-record-editor';
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
  const editor = useRecordEditor({
    resource: 'user',
    record: null,
    toForm: (): Partial<AddUserValues> => ({}),
    save: createUser,
    onSaved: (_answer, _input, form) => {
      notify.success(t('user.toast.created'));
      form.resetFields();
    },
  });

  const submit = (values: AddUserValues) => {
    const username = (values.username ?? '').trim();
    if (!username || !values.password) return;
    editor.save({ username, display_name: (values.display_name ?? '').trim(), password: values.password });
  };

  return (
    <EditPage title={t('user.add.title')} editor={editor} onFinish={submit} backTo="/user">
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
    </EditPage>
  );
}
