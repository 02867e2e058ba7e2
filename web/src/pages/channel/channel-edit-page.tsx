import { Button, Card, Flex, Form, Input, Select, Skeleton, Switch } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { createChannel, fetchChannel, fetchGroups, updateChannel } from '../../api/channel';
import { PageHeading } from '../../components/page-heading/page-heading';
import { notify } from '../../lib/notify';
import { channelToForm, emptyChannelForm, formToChannel, type ChannelFormValues } from './channel-form-values';
import { ChannelModelPicker } from './channel-model-picker';
import { loadChannelModels, storedChannelModels, type ChannelModelMap } from './channel-models';
import { ChannelTypeFields } from './channel-type-fields';
import { CHANNEL_TYPES, ChannelTypeId, KEY_HINT_TYPES } from './channel-types';
import { useSaving } from '../../hooks/use-saving';

const MAPPING_EXAMPLE = JSON.stringify({ 'gpt-3.5-turbo-0301': 'gpt-3.5-turbo', 'gpt-4-0314': 'gpt-4' }, null, 2);

/** Create (/channel/add) or edit (/channel/edit/:id) a channel. */
export default function ChannelEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const channelId = id ? Number(id) : 0;
  const creating = !channelId;
  const [form] = Form.useForm<ChannelFormValues>();
  const type = Form.useWatch('type', form) ?? ChannelTypeId.openAI;
  const [loading, setLoading] = useState(!creating);
  const { saving, run: save } = useSaving();
  const [batch, setBatch] = useState(false);
  const [groups, setGroups] = useState<string[]>(['default']);
  const [typeModels, setTypeModels] = useState<ChannelModelMap>(storedChannelModels);

  useEffect(() => {
    void loadChannelModels().then(setTypeModels);
    fetchGroups().then(
      (names) => setGroups([...new Set(['default', ...(names ?? [])])]),
      () => undefined,
    );
  }, []);

  useEffect(() => {
    if (creating) return;
    fetchChannel(channelId)
      .then((channel) => form.setFieldsValue(channelToForm(channel)))
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [channelId, creating, form]);

  const allModels = useMemo(
    () => [...new Set(Object.values(typeModels).flatMap((models) => models ?? []))].sort(),
    [typeModels],
  );
  const modelsOfType = typeModels[String(type)] ?? [];

  const onTypeChange = (next: number) => {
    const chosen: string[] = form.getFieldValue('models') ?? [];
    if (chosen.length === 0) form.setFieldValue('models', typeModels[String(next)] ?? []);
  };

  const submit = async (values: ChannelFormValues) => {
    const result = formToChannel({ ...emptyChannelForm, ...values }, creating);
    if (!result.ok) {
      notify.info(t(`channel.form.error.${result.error}`));
      return;
    }
    await save(async () => {
      if (creating) {
        await createChannel(result.input);
        notify.success(t('channel.toast.created'));
        form.resetFields();
      } else {
        await updateChannel({ ...result.input, id: channelId });
        notify.success(t('channel.toast.updated'));
      }
    });
  };

  const keyHint = (KEY_HINT_TYPES as readonly number[]).includes(type)
    ? t(`channel.form.keyHint.${type}`)
    : t('channel.form.keyPlaceholder');
  const keyOptional = type === ChannelTypeId.aws || type === ChannelTypeId.vertexAI;
  return (
    <>
      <PageHeading title={t(creating ? 'channel.add.title' : 'channel.edit.title')} />
      <Card>
        {loading ? (
          <Skeleton active />
        ) : (
          <Form form={form} layout="vertical" initialValues={emptyChannelForm} onFinish={submit}>
            <Form.Item name="type" label={t('channel.form.type')}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                onChange={onTypeChange}
                options={CHANNEL_TYPES.map((entry) => ({ value: entry.id, label: t(`channel.type.${entry.id}`) }))}
              />
            </Form.Item>
            <Form.Item name="name" label={t('channel.form.name')}>
              <Input placeholder={t('channel.form.namePlaceholder')} />
            </Form.Item>
            <Form.Item
              name="base_url"
              label={t('channel.form.baseUrl')}
              extra={type === ChannelTypeId.custom ? t('channel.form.customBaseUrlHint') : undefined}
            >
              <Input placeholder={t('channel.form.baseUrlPlaceholder')} />
            </Form.Item>
            <ChannelTypeFields type={type} />
            <Form.Item name="groups" label={t('channel.form.group')}>
              <Select mode="multiple" options={groups.map((group) => ({ value: group, label: group }))} />
            </Form.Item>
            <Form.Item name="models" label={t('channel.form.models')}>
              <ChannelModelPicker typeModels={modelsOfType} allModels={allModels} />
            </Form.Item>
            <Form.Item
              name="model_mapping"
              label={t('channel.form.modelMapping')}
              extra={t('channel.form.modelMappingHint')}
            >
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} placeholder={MAPPING_EXAMPLE} />
            </Form.Item>
            <Form.Item name="system_prompt" label={t('channel.form.systemPrompt')}>
              <Input.TextArea
                autoSize={{ minRows: 2, maxRows: 8 }}
                placeholder={t('channel.form.systemPromptPlaceholder')}
              />
            </Form.Item>
            {!keyOptional || !creating ? null : <p>{t('channel.form.composedKeyHint')}</p>}
            <Form.Item
              name="key"
              label={t('channel.form.key')}
              extra={creating ? undefined : t('channel.form.keyKeepHint')}
            >
              {batch ? (
                <Input.TextArea
                  autoSize={{ minRows: 3, maxRows: 12 }}
                  placeholder={t('channel.form.batchPlaceholder')}
                />
              ) : (
                <Input.Password autoComplete="new-password" placeholder={keyHint} />
              )}
            </Form.Item>
            {creating && (
              <Flex gap={8} align="center" style={{ marginBottom: 16 }}>
                <Switch checked={batch} onChange={setBatch} aria-label={t('channel.form.batch')} />
                {t('channel.form.batch')}
              </Flex>
            )}
            <Flex gap={8}>
              <Button onClick={() => navigate('/channel')}>{t('common.cancel')}</Button>
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
