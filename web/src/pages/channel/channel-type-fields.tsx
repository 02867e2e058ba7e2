import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { AZURE_DEFAULT_API_VERSION, ChannelTypeId } from './channel-types';

/** Fields that only some channel types have: API version, Spark version, knowledge base, plugin, config parts. */
export function ChannelTypeFields({ type }: { type: number }) {
  const { t } = useTranslation();
  switch (type) {
    case ChannelTypeId.azure:
      return (
        <>
          <Alert style={{ marginBottom: 12 }} type="warning" title={t('channel.form.azureHint')} />
          <Form.Item name="other" label={t('channel.form.azureVersion')}>
            <Input placeholder={t('channel.form.azureVersionPlaceholder', { version: AZURE_DEFAULT_API_VERSION })} />
          </Form.Item>
        </>
      );
    case ChannelTypeId.xunfei:
      return (
        <Form.Item name="other" label={t('channel.form.sparkVersion')}>
          <Input placeholder={t('channel.form.sparkVersionPlaceholder')} />
        </Form.Item>
      );
    case ChannelTypeId.aiProxyLibrary:
      return (
        <Form.Item name="other" label={t('channel.form.knowledgeId')}>
          <Input placeholder={t('channel.form.knowledgeIdPlaceholder')} />
        </Form.Item>
      );
    case ChannelTypeId.ali:
      return (
        <Form.Item name="other" label={t('channel.form.plugin')}>
          <Input placeholder={t('channel.form.pluginPlaceholder')} />
        </Form.Item>
      );
    case ChannelTypeId.aws:
      return (
        <>
          <Form.Item name="region" label={t('channel.form.region')}>
            <Input placeholder={t('channel.form.awsRegionPlaceholder')} />
          </Form.Item>
          <Form.Item name="ak" label={t('channel.form.ak')}>
            <Input />
          </Form.Item>
          <Form.Item name="sk" label={t('channel.form.sk')}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </>
      );
    case ChannelTypeId.vertexAI:
      return (
        <>
          <Form.Item name="region" label={t('channel.form.region')}>
            <Input placeholder={t('channel.form.vertexRegionPlaceholder')} />
          </Form.Item>
          <Form.Item name="vertex_ai_project_id" label={t('channel.form.vertexProject')}>
            <Input />
          </Form.Item>
          <Form.Item name="vertex_ai_adc" label={t('channel.form.vertexAdc')}>
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 8 }}
              placeholder={t('channel.form.vertexAdcPlaceholder')}
            />
          </Form.Item>
        </>
      );
    case ChannelTypeId.coze:
    case ChannelTypeId.cloudflare:
      return (
        <Form.Item
          name="user_id"
          label={t(type === ChannelTypeId.coze ? 'channel.form.cozeUser' : 'channel.form.cloudflareAccount')}
        >
          <Input />
        </Form.Item>
      );
    default:
      return null;
  }
}
