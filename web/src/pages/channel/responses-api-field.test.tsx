import { render, screen } from '@testing-library/react';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { ResponsesApiField } from './responses-api-field';

initI18n();

const formWith = (type: number, responsesApi: string) =>
  render(
    <Form initialValues={{ responses_api: responsesApi }}>
      <ResponsesApiField type={type} />
    </Form>,
  );

describe('the Responses API field of the channel form', () => {
  it('shows the stored setting on OpenAI-protocol types', () => {
    formWith(8, 'native');
    expect(screen.getByText('Responses API')).toBeTruthy();
    expect(screen.getByText('原样转发（上游支持 Responses API）')).toBeTruthy();
  });

  it('shows auto, the default, on Azure when the config says nothing', () => {
    formWith(3, '');
    expect(screen.getByText('自动（默认）')).toBeTruthy();
  });

  it('shows a config that says auto as the default choice', () => {
    formWith(1, 'auto');
    expect(screen.getByText('自动（默认）')).toBeTruthy();
  });

  it('is absent on other types (Claude)', () => {
    formWith(14, '');
    expect(screen.queryByText('Responses API')).toBeNull();
  });
});
