import { Button, Card, Col, Form, Input, InputNumber, Row, Select } from 'antd';
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { changedOptions, fieldValues, type OptionField } from './option-fields';
import { useSaveOptions, type OptionMap } from './use-options';

export interface OptionSectionProps {
  titleKey: string;
  fields: readonly OptionField[];
  options: OptionMap;
  /** Translation key of the save button. */
  saveKey?: string;
  /** Returns the translation key of an error, or null when the values may be saved. */
  validate?: (values: Record<string, unknown>) => string | null;
  /** Extra content under the fields (switches, actions). */
  children?: ReactNode;
  /** Runs before a save with what changed; calls `save` once the admin agrees (else the save is dropped). */
  beforeSave?: (changes: Array<[string, string]>, save: () => void) => void;
}

const wide = (kind: OptionField['kind']) => kind === 'textarea' || kind === 'json';

/** A card of option fields with one save button that writes only what changed. */
export function OptionSection({
  titleKey,
  fields,
  options,
  saveKey,
  validate,
  children,
  beforeSave,
}: OptionSectionProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, unknown>>();
  const saving = useSaveOptions();

  useEffect(() => {
    form.setFieldsValue(fieldValues(fields, options));
  }, [form, fields, options]);

  const save = (values: Record<string, unknown>) => {
    const error = validate?.(values);
    if (error) {
      notify.error(t(error));
      return;
    }
    const changes = changedOptions(fields, values, options);
    if (changes.length === 0) return;
    if (beforeSave) beforeSave(changes, () => saving.mutate(changes));
    else saving.mutate(changes);
  };

  return (
    <Card title={t(titleKey)} style={{ marginBottom: 16 }}>
      {children}
      {fields.length > 0 && (
        <Form form={form} layout="vertical" onFinish={save}>
          <Row gutter={12}>
            {fields.map((field) => (
              <Col key={field.key} xs={24} md={wide(field.kind) ? 24 : 8}>
                <Form.Item
                  name={field.key}
                  label={t(`settingAdmin.option.${field.key}`)}
                  extra={field.hintKey ? t(field.hintKey) : undefined}
                >
                  {renderInput(
                    field,
                    field.placeholderKey
                      ? t(field.placeholderKey)
                      : field.kind === 'secret'
                        ? t('settingAdmin.secretPlaceholder')
                        : undefined,
                  )}
                </Form.Item>
              </Col>
            ))}
          </Row>
          <Button htmlType="submit" loading={saving.isPending}>
            {t(saveKey ?? 'settingAdmin.save')}
          </Button>
        </Form>
      )}
    </Card>
  );
}

function renderInput(field: OptionField, placeholder: string | undefined) {
  switch (field.kind) {
    case 'number':
      return <InputNumber min={field.min} step={field.step ?? 1} placeholder={placeholder} style={{ width: '100%' }} />;
    case 'textarea':
    case 'json':
      return (
        <Input.TextArea
          autoSize={{ minRows: 4, maxRows: 16 }}
          placeholder={placeholder}
          style={{ fontFamily: field.kind === 'json' ? 'monospace' : undefined }}
        />
      );
    case 'select':
      return <Select options={(field.choices ?? []).map((choice) => ({ value: choice, label: choice }))} />;
    case 'secret':
      return <Input.Password autoComplete="new-password" placeholder={placeholder} />;
    default:
      return <Input placeholder={placeholder} />;
  }
}
