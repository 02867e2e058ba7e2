import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { RESPONSES_API_TYPES } from './channel-types';

/**
 * How an OpenAI-protocol channel takes Responses API calls (config `responses_api`): automatically (OpenAI and
 * Azure natively, falling back to chat completions for good when the upstream answers 404 or 405; the others
 * converted), always natively, or always converted to chat completions.
 */
export function ResponsesApiField({ type }: { type: number }) {
  const { t } = useTranslation();
  if (!RESPONSES_API_TYPES.has(type)) return null;
  return (
    <Form.Item
      name="responses_api"
      label={t('channel.form.responsesApi')}
      extra={t('channel.form.responsesApiHint')}
      // A config written through the API may say `auto`, the default the empty choice stands for.
      getValueProps={(value: string) => ({ value: value === 'auto' ? '' : value })}
    >
      <Select
        options={[
          { value: '', label: t('channel.form.responsesApiAuto') },
          { value: 'native', label: t('channel.form.responsesApiNative') },
          { value: 'chat', label: t('channel.form.responsesApiChat') },
        ]}
      />
    </Form.Item>
  );
}
