import { Form, Input, Select, Switch, Flex } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createChannel, fetchChannel, updateChannel, type ChannelInput } from '../../api/channel';
import { EditPage } from '../../components/edit-page/edit-page';
import { useRecordEditor, useRecordId } from '../../components/edit-page/use-record-editor';
import { useGroups } from '../../hooks/use-groups';
import { notify } from '../../lib/notify';
import { channelToForm, emptyChannelForm, formToChannel, type ChannelFormValues } from './channel-form-values';
import { ChannelModelPicker } from './channel-model-picker';
import { useChannelTypeModels } from './channel-models';
import { ChannelTypeFields } from './channel-type-fields';
import { CHANNEL_TYPES, ChannelTypeId, KEY_HINT_TYPES } from './channel-types';
import { AnthropicBetaField } from './anthropic-beta-field';
import { ResponsesApiField } from './responses-api-field';

const MAPPING_EXAMPLE = JSON.stringify({ 'gpt-3.5-turbo-0301': 'gpt-3.5-turbo', 'gpt-4-0314': 'gpt-4' }, null, 2);

/** Create (/channel/add) or edit (/channel/edit/:id) a channel. */
export default function ChannelEditPage() {
  const { t } = useTranslation();
  const channelId = useRecordId();
  const creating = !channelId;
  const editor = useRecordEditor({
    resource: 'channel',
    record: creating ? null : { id: channelId, load: () => fetchChannel(channelId) },
    toForm: channelToForm,
    save: (input: ChannelInput) => (creating ? createChannel(input) : updateChannel({ ...input, id: channelId })),
    onSaved: (_answer, _input, form) => {
      notify.success(t(creating ? 'channel.toast.created' : 'channel.toast.updated'));
      if (creating) form.resetFields();
    },
  });
  const { form } = editor;
  const type = Form.useWatch('type', form) ?? ChannelTypeId.openAI;
  const [batch, setBatch] = useState(false);
  const groups = [...new Set(['default', ...useGroups()])];
  const typeModels = useChannelTypeModels();

  const allModels = useMemo(
    () => [...new Set(Object.values(typeModels).flatMap((models) => models ?? []))].sort(),
    [typeModels],
  );
  const modelsOfType = typeModels[String(type)] ?? [];

  const onTypeChange = (next: number) => {
    const chosen: string[] = form.getFieldValue('models') ?? [];
    if (chosen.length === 0) form.setFieldValue('models', typeModels[String(next)] ?? []);
  };

  const submit = (values: ChannelFormValues) => {
    const result = formToChannel({ ...emptyChannelForm, ...values }, creating);
    if (result.ok) editor.save(result.input);
    else notify.info(t(`channel.form.error.${result.error}`));
  };

  const keyHint = (KEY_HINT_TYPES as readonly number[]).includes(type)
    ? t(`channel.form.keyHint.${type}`)
    : t('channel.form.keyPlaceholder');
  const keyOptional = type === ChannelTypeId.aws || type === ChannelTypeId.vertexAI;
  return (
    <EditPage
      title={t(creating ? 'channel.add.title' : 'channel.edit.title')}
      editor={editor}
      initialValues={emptyChannelForm}
      onFinish={submit}
      backTo="/channel"
    >
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
      <ResponsesApiField type={type} />
      <AnthropicBetaField type={type} />
      <Form.Item name="groups" label={t('channel.form.group')}>
        <Select mode="multiple" options={groups.map((group) => ({ value: group, label: group }))} />
      </Form.Item>
      <Form.Item name="models" label={t('channel.form.models')}>
        <ChannelModelPicker typeModels={modelsOfType} allModels={allModels} />
      </Form.Item>
      <Form.Item name="model_mapping" label={t('channel.form.modelMapping')} extra={t('channel.form.modelMappingHint')}>
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} placeholder={MAPPING_EXAMPLE} />
      </Form.Item>
      <Form.Item name="system_prompt" label={t('channel.form.systemPrompt')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder={t('channel.form.systemPromptPlaceholder')} />
      </Form.Item>
      {!keyOptional || !creating ? null : <p>{t('channel.form.composedKeyHint')}</p>}
      <Form.Item name="key" label={t('channel.form.key')} extra={creating ? undefined : t('channel.form.keyKeepHint')}>
        {batch ? (
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 12 }} placeholder={t('channel.form.batchPlaceholder')} />
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
    </EditPage>
  );
}
