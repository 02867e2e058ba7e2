import { Button, Flex, Input, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addCustomModels } from './channel-form-values';

export interface ChannelModelPickerProps {
  value?: string[];
  onChange?: (models: string[]) => void;
  /** Default models of the chosen type. */
  typeModels: string[];
  /** Every model any type knows. */
  allModels: string[];
}

/** The models field: a multi-select with fill buttons and a box for custom model names. */
export function ChannelModelPicker({ value = [], onChange, typeModels, allModels }: ChannelModelPickerProps) {
  const { t } = useTranslation();
  const [custom, setCustom] = useState('');
  const options = [...new Set([...value, ...typeModels, ...allModels])].map((model) => ({
    value: model,
    label: model,
  }));
  const change = (models: string[]) => onChange?.(models);
  return (
    <Flex vertical gap={8}>
      <Select
        mode="multiple"
        allowClear
        value={value}
        onChange={change}
        options={options}
        placeholder={t('channel.form.modelsPlaceholder')}
        aria-label={t('channel.form.models')}
        maxTagCount={30}
      />
      <Space wrap>
        <Button size="small" onClick={() => change(addCustomModels(value, typeModels.join(',')))}>
          {t('channel.form.fillTypeModels')}
        </Button>
        <Button size="small" onClick={() => change(addCustomModels(value, allModels.join(',')))}>
          {t('channel.form.fillAllModels')}
        </Button>
        <Button size="small" onClick={() => change([])}>
          {t('channel.form.clearModels')}
        </Button>
      </Space>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={custom}
          onChange={(event) => setCustom(event.target.value)}
          placeholder={t('channel.form.customModelPlaceholder')}
          aria-label={t('channel.form.customModel')}
          onPressEnter={(event) => {
            event.preventDefault();
            change(addCustomModels(value, custom));
            setCustom('');
          }}
        />
        <Button
          onClick={() => {
            change(addCustomModels(value, custom));
            setCustom('');
          }}
        >
          {t('channel.form.addCustomModel')}
        </Button>
      </Space.Compact>
    </Flex>
  );
}
