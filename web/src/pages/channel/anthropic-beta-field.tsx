import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ANTHROPIC_BETA_TYPES } from './channel-types';

/**
 * Which `anthropic-beta` flags of Anthropic-protocol clients (Claude Code) a Claude channel passes on (config
 * `anthropic_beta_pass`, `*` for all; empty keeps the type's default) and which it strips
 * (`anthropic_beta_strip`). Stripped flags are named in the answer's `x-modelgate-dropped`.
 */
export function AnthropicBetaField({ type }: { type: number }) {
  const { t } = useTranslation();
  if (!ANTHROPIC_BETA_TYPES.has(type)) return null;
  return (
    <>
      <Form.Item
        name="anthropic_beta_pass"
        label={t('channel.form.anthropicBetaPass')}
        extra={t('channel.form.anthropicBetaPassHint')}
      >
        <Input placeholder={t('channel.form.anthropicBetaPassPlaceholder')} />
      </Form.Item>
      <Form.Item
        name="anthropic_beta_strip"
        label={t('channel.form.anthropicBetaStrip')}
        extra={t('channel.form.anthropicBetaStripHint')}
      >
        <Input placeholder="prompt-caching-scope-2026-01-05" />
      </Form.Item>
    </>
  );
}
