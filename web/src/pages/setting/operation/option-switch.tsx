import { Flex, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { saveOptions, type OptionMap } from './use-options';

export interface OptionSwitchProps {
  optionKey: string;
  options: OptionMap;
  onSaved: () => void;
  /** Asked before switching off; resolve false to keep the option on. */
  confirmOff?: () => Promise<boolean>;
}

/** A boolean option that saves as soon as it flips ("true"/"false" strings on the server). */
export function OptionSwitch({ optionKey, options, onSaved, confirmOff }: OptionSwitchProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const checked = options[optionKey] === 'true';
  const flip = async (next: boolean) => {
    if (!next && confirmOff && !(await confirmOff())) return;
    setSaving(true);
    const saved = await saveOptions([[optionKey, String(next)]]);
    setSaving(false);
    if (saved) {
      notify.success(t('settingAdmin.toast.saved'));
      onSaved();
    }
  };
  const label = t(`settingAdmin.option.${optionKey}`);
  return (
    <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
      <Switch checked={checked} loading={saving} onChange={(next) => void flip(next)} aria-label={label} />
      <span>{label}</span>
    </Flex>
  );
}
