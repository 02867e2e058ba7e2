import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { createToken, fetchToken, updateToken, type TokenInput } from '../../api/token';
import { fetchAvailableModels } from '../../api/user';
import { EditPage } from '../../components/edit-page/edit-page';
import { useRecordEditor, useRecordId } from '../../components/edit-page/use-record-editor';
import { useRenderQuota } from '../../hooks/use-quota';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';
import { formatTimestamp, nowSeconds } from '../../lib/time';
import { LimitFields } from '../shared/limit-fields';
import { emptyTokenForm, formToToken, tokenToForm, type TokenFormValues } from './token-form-values';
import { dollarsToQuota, EXPIRY_PICKS, expiryFromPick, NEVER_EXPIRES, QUOTA_PICKS_DOLLARS } from './token-quick-picks';

/** Create (/token/add) or edit (/token/edit/:id) a token. */
export default function TokenEditPage() {
  const { t } = useTranslation();
  const tokenId = useRecordId();
  const creating = !tokenId;
  const renderQuota = useRenderQuota();
  // The remaining quota the form was filled with: sent as original_remain_quota, so a save moves the token by
  // what was typed and keeps the charges made while the page was open (issue 29).
  const loadedRemainQuota = useRef(0);
  const editor = useRecordEditor({
    resource: 'token',
    record: creating ? null : { id: tokenId, load: () => fetchToken(tokenId) },
    toForm: (token) => {
      loadedRemainQuota.current = token.remain_quota;
      return tokenToForm(token);
    },
    save: (input: TokenInput) =>
      creating
        ? createToken(input)
        : updateToken({ ...input, id: tokenId, original_remain_quota: loadedRemainQuota.current }),
    onSaved: (token, _input, form) => {
      notify.success(t(creating ? 'token.toast.created' : 'token.toast.updated'));
      if (creating) form.resetFields();
      else {
        // The token as it now is (charges included) is the next save's starting point.
        loadedRemainQuota.current = token.remain_quota;
        form.setFieldValue('remain_dollars', tokenToForm(token).remain_dollars);
      }
    },
  });
  const { form } = editor;
  const dollars = Form.useWatch('remain_dollars', form);
  // An amount means nothing while the quota is unlimited; a quick pick of an amount turns unlimited off.
  const unlimited = Form.useWatch('unlimited_quota', form) === true;
  const { data: models = [] } = useQuery({
    queryKey: queryKeys.read('user', 'available-models'),
    queryFn: async () => ((await fetchAvailableModels()) ?? []).filter((name) => !name.startsWith('ep-')),
    meta: { failureMessage: 'token.form.modelsFailed' },
  });

  const pickExpiry = (key: (typeof EXPIRY_PICKS)[number]['key']) => {
    const seconds = expiryFromPick(key, nowSeconds());
    form.setFieldValue('expiry', seconds === NEVER_EXPIRES ? '' : (formatTimestamp(seconds) ?? ''));
  };
  const pickQuota = (amount: number | null) => {
    if (amount === null) form.setFieldsValue({ unlimited_quota: true, remain_dollars: 0 });
    else form.setFieldsValue({ unlimited_quota: false, remain_dollars: amount });
  };

  const submit = (values: TokenFormValues) => {
    if (creating && !values.name.trim()) return;
    const result = formToToken(values);
    if (result.ok) editor.save(result.input);
    else notify.error(t('token.form.expiryError'));
  };

  return (
    <EditPage
      title={t(creating ? 'token.add.title' : 'token.edit.title')}
      editor={editor}
      initialValues={emptyTokenForm}
      onFinish={submit}
      backTo="/token"
    >
      <Form.Item name="name" label={t('token.form.name')}>
        <Input placeholder={t('token.form.namePlaceholder')} maxLength={30} />
      </Form.Item>
      <Form.Item name="models" label={t('token.form.models')} extra={t('token.form.modelsHint')}>
        <Select mode="multiple" allowClear options={models.map((name) => ({ key: name, value: name, label: name }))} />
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
          disabled={unlimited || editor.loadError !== null}
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
      <Alert style={{ marginBottom: 16 }} type="info" title={t('token.form.limitsNotice')} />
      <LimitFields />
    </EditPage>
  );
}
