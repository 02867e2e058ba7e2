import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { createRedemptions, fetchRedemption, updateRedemption } from '../../api/redemption';
import { EditPage } from '../../components/edit-page/edit-page';
import { useRecordEditor, useRecordId } from '../../components/edit-page/use-record-editor';
import { useRenderQuota } from '../../hooks/use-quota';
import { notify } from '../../lib/notify';
import { downloadCodes } from './redemption-download';

interface RedemptionFormValues {
  name: string;
  quota: number;
  count: number;
}

/** Create (/redemption/add) or edit (/redemption/edit/:id) redemption codes. */
export default function RedemptionEditPage() {
  const { t } = useTranslation();
  const codeId = useRecordId();
  const creating = !codeId;
  const renderQuota = useRenderQuota();
  const editor = useRecordEditor({
    resource: 'redemption',
    record: creating ? null : { id: codeId, load: () => fetchRedemption(codeId) },
    toForm: (row): Partial<RedemptionFormValues> => ({ name: row.name, quota: row.quota }),
    /** Creating answers the new codes; editing answers none. */
    save: async (input: { name: string; quota: number; count: number }): Promise<string[]> => {
      if (creating) return (await createRedemptions(input)) ?? [];
      await updateRedemption({ id: codeId, name: input.name, quota: input.quota });
      return [];
    },
    onSaved: (codes, input, form) => {
      notify.success(t(creating ? 'redemption.toast.created' : 'redemption.toast.updated'));
      if (!creating) return;
      if (codes.length) downloadCodes(input.name, codes);
      form.resetFields();
    },
  });
  const quota = Form.useWatch('quota', editor.form);

  const submit = (values: RedemptionFormValues) => {
    const name = (values.name ?? '').trim();
    if (creating && !name) return;
    editor.save({ name, quota: Math.trunc(Number(values.quota) || 0), count: Math.trunc(Number(values.count) || 0) });
  };

  return (
    <EditPage
      title={t(creating ? 'redemption.add.title' : 'redemption.edit.title')}
      editor={editor}
      initialValues={{ name: '', quota: 100000, count: 1 }}
      onFinish={submit}
      backTo="/redemption"
    >
      <Form.Item name="name" label={t('redemption.form.name')}>
        <Input placeholder={t('redemption.form.namePlaceholder')} maxLength={20} />
      </Form.Item>
      <Form.Item name="quota" label={t('redemption.form.quota', { quota: renderQuota(Number(quota) || 0) })}>
        <InputNumber min={0} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      {creating && (
        <Form.Item name="count" label={t('redemption.form.count')}>
          <InputNumber min={1} max={100} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      )}
    </EditPage>
  );
}
