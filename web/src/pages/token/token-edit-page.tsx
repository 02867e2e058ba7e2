import { Alert, Button, Card, Flex, Form, Input, InputNumber, Select, Skeleton, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { createToken, fetchToken, updateToken } from '../../api/token';
import { fetchAvailableModels } from '../../api/user';
import { PageHeading } from '../../components/page-heading/page-heading';
import { useRenderQuota } from '../../hooks/use-quota';
import { notify } from '../../lib/notify';
import { formatTimestamp, nowSeconds } from '../../lib/time';
import { emptyTokenForm, formToToken, tokenToForm, type TokenFormValues } from './token-form-values';
import { dollarsToQuota, EXPIRY_PICKS, expiryFromPick, NEVER_EXPIRES, QUOTA_PICKS_DOLLARS } from './token-quick-picks';
import { useSaving } from '../../hooks/use-saving';

/** Create (/token/add) or edit (/token/edit/:id) a token. */
export default function TokenEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const tokenId = id ? Number(id) : 0;
  const creating = !tokenId;
  const renderQuota = useRenderQuota();
  const [form] = Form.useForm<TokenFormValues>();
  const dollars = Form.useWatch('remain_dollars', form);
  const [models, setModels] = useState<string[]>([]);
  const [loading, setLoading] = useState(!creating);
  const { saving, run: save } = useSaving();

  useEffect(() => {
    fetchAvailableModels().then(
      (names) => setModels((names ?? []).filter((name) => !name.startsWith('ep-'))),
      () => notify.error(t('token.form.modelsFailed')),
    );
  }, [t]);

  useEffect(() => {
    if (creating) return;
    fetchToken(tokenId)
      .then((token) => form.setFieldsValue(tokenToForm(token)))
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [creating, tokenId, form]);

  const pickExpiry = (key: (typeof EXPIRY_PICKS)[number]['key']) => {
    const seconds = expiryFromPick(key, nowSeconds());
    form.setFieldValue('expiry', seconds === NEVER_EXPIRES ? '' : (formatTimestamp(seconds) ?? ''));
  };
  const pickQuota = (amount: number | null) => {
    if (amount === null) form.setFieldsValue({ unlimited_quota: true, remain_dollars: 0 });
    else form.setFieldsValue({ unlimited_quota: false, remain_dollars: amount });
  };

  const submit = async (values: TokenFormValues) => {
    if (creating && !values.name.trim()) return;
    const result = formToToken(values);
    if (!result.ok) {
      notify.error(t('token.form.expiryError'));
      return;
    }
    await save(async () => {
      if (creating) {
        await createToken(result.input);
        notify.success(t('token.toast.created'));
        form.resetFields();
      } else {
        await updateToken({ ...result.input, id: tokenId });
        notify.success(t('token.toast.updated'));
      }
    });
  };

  return (
    <>
      <PageHeading title={t(creating ? 'token.add.title' : 'token.edit.title')} />
      <Card>
        {loading ? (
          <Skeleton active />
        ) : (
          <Form form={form} layout="vertical" initialValues={emptyTokenForm} onFinish={submit}>
            <Form.Item name="name" label={t('token.form.name')}>
              <Input placeholder={t('token.form.namePlaceholder')} maxLength={30} />
            </Form.Item>
            <Form.Item name="models" label={t('token.form.models')} extra={t('token.form.modelsHint')}>
              <Select
                mode="multiple"
                allowClear
                options={models.map((name) => ({ key: name, value: name, label: name }))}
              />
            </Form.Item>
            <Form.Item name="subnet" label={t('token.form.subnet')} extra={t('token.form.subnetHint')}>
              <Input placeholder={t('token.form.subnetPlaceholder')} />
            </Form.Item>
            <Form.Item name="expiry" label={t('token.form.expiry')}>
              <Input placeholder={t('token.form.expiryPlaceholder')} />
            </Form.Item>
            <Space wrap style={{ marginBottom: 16 }}>
              {EXPIRY_PICKS.map((pick) => (
                <Button key={pick.key} size="small" onClick={() => pickExpiry(pick.key)}>
                  {t(`token.expiry.${pick.key}`)}
                </Button>
              ))}
            </Space>
            <Alert style={{ marginBottom: 16 }} type="warning" title={t('token.form.quotaNotice')} />
            <Form.Item
              name="remain_dollars"
              label={t('token.form.remainQuota', { quota: renderQuota(dollarsToQuota(Number(dollars) || 0)) })}
            >
              <InputNumber
                min={0}
                step={0.5}
                style={{ width: '100%' }}
                prefix={t('token.form.dollarPrefix')}
                onChange={(value) => {
                  if (typeof value === 'number' && value > 0) form.setFieldValue('unlimited_quota', false);
                }}
              />
            </Form.Item>
            <Space wrap style={{ marginBottom: 16 }}>
              {QUOTA_PICKS_DOLLARS.map((amount) => (
                <Button key={String(amount)} size="small" onClick={() => pickQuota(amount)}>
                  {amount === null ? t('token.quota.unlimited') : t('token.quota.dollars', { amount })}
                </Button>
              ))}
            </Space>
            <Flex gap={8} align="center" style={{ marginBottom: 16 }}>
              <Form.Item name="unlimited_quota" valuePropName="checked" noStyle>
                <Switch
                  aria-label={t('token.form.unlimited')}
                  onChange={(checked) => {
                    if (checked) form.setFieldValue('remain_dollars', 0);
                  }}
                />
              </Form.Item>
              {t('token.form.unlimited')}
            </Flex>
            <Flex gap={8}>
              <Button onClick={() => navigate('/token')}>{t('common.cancel')}</Button>
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
