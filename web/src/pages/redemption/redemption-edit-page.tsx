import { Button, Card, Flex, Form, Input, InputNumber, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { createRedemptions, fetchRedemption, updateRedemption } from '../../api/redemption';
import { PageHeading } from '../../components/page-heading/page-heading';
import { useRenderQuota } from '../../hooks/use-quota';
import { notify } from '../../lib/notify';
import { downloadCodes } from './redemption-download';
import { useSaving } from '../../hooks/use-saving';

interface RedemptionFormValues {
  name: string;
  quota: number;
  count: number;
}

/** Create (/redemption/add) or edit (/redemption/edit/:id) redemption codes. */
export default function RedemptionEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const codeId = id ? Number(id) : 0;
  const creating = !codeId;
  const renderQuota = useRenderQuota();
  const [form] = Form.useForm<RedemptionFormValues>();
  const quota = Form.useWatch('quota', form);
  const [loading, setLoading] = useState(!creating);
  const { saving, run: save } = useSaving();

  useEffect(() => {
    if (creating) return;
    fetchRedemption(codeId)
      .then((row) => form.setFieldsValue({ name: row.name, quota: row.quota }))
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [creating, codeId, form]);

  const submit = async (values: RedemptionFormValues) => {
    const name = (values.name ?? '').trim();
    if (creating && !name) return;
    const amount = Math.trunc(Number(values.quota) || 0);
    await save(async () => {
      if (creating) {
        const codes = await createRedemptions({ name, quota: amount, count: Math.trunc(Number(values.count) || 0) });
        notify.success(t('redemption.toast.created'));
        if (codes?.length) downloadCodes(name, codes);
        form.resetFields();
      } else {
        await updateRedemption({ id: codeId, name, quota: amount });
        notify.success(t('redemption.toast.updated'));
      }
    });
  };

  return (
    <>
      <PageHeading title={t(creating ? 'redemption.add.title' : 'redemption.edit.title')} />
      <Card>
        {loading ? (
          <Skeleton active />
        ) : (
          <Form form={form} layout="vertical" initialValues={{ name: '', quota: 100000, count: 1 }} onFinish={submit}>
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
            <Flex gap={8}>
              <Button onClick={() => navigate('/redemption')}>{t('common.cancel')}</Button>
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
