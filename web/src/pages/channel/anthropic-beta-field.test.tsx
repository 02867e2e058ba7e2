import { render, screen } from '@testing-library/react';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { AnthropicBetaField } from './anthropic-beta-field';
import { channelToForm, emptyChannelForm, formToChannel } from './channel-form-values';

initI18n();

const formWith = (type: number, pass: string) =>
  render(
    <Form initialValues={{ anthropic_beta_pass: pass, anthropic_beta_strip: '' }}>
      <AnthropicBetaField type={type} />
    </Form>,
  );

describe('the anthropic-beta fields of the channel form', () => {
  it('show the stored flags on Claude channel types (Bedrock)', () => {
    formWith(33, 'interleaved-thinking-2025-05-14,context-1m-2025-08-07');
    expect(screen.getByText('透传的 anthropic-beta')).toBeTruthy();
    expect(screen.getByDisplayValue('interleaved-thinking-2025-05-14,context-1m-2025-08-07')).toBeTruthy();
    expect(screen.getByText('剔除的 anthropic-beta')).toBeTruthy();
  });

  it('are absent on other types (OpenAI)', () => {
    formWith(1, '');
    expect(screen.queryByText('透传的 anthropic-beta')).toBeNull();
  });

  it('are saved in the config and read back', () => {
    const saved = formToChannel(
      {
        ...emptyChannelForm,
        type: 42,
        name: 'vertex',
        key: 'us-east5|project|{}',
        models: ['claude-sonnet-4-5@20250929'],
        anthropic_beta_pass: '*',
        anthropic_beta_strip: ' effort-2025-11-24 ',
      },
      true,
    );
    if (!saved.ok) throw new Error(saved.error);
    expect(JSON.parse(saved.input.config ?? '{}')).toEqual({
      anthropic_beta_pass: '*',
      anthropic_beta_strip: 'effort-2025-11-24',
    });
    const form = channelToForm({ ...saved.input, id: 1, config: saved.input.config } as never);
    expect(form).toMatchObject({ anthropic_beta_pass: '*', anthropic_beta_strip: 'effort-2025-11-24' });
  });
});
