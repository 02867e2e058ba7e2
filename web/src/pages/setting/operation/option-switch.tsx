import { Flex, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveOptions, type OptionMap } from './use-options';

export interface OptionSwitchProps {
  optionKey: string;
  options: OptionMap;
  /** Asked before switching off; resolve false to keep the option on. */
  confirmOff?: () => Promise<boolean>;
}

/** A boolean option that saves as soon as it flips ("true"/"false" strings on the server). */
export function OptionSwitch({ optionKey, options, confirmOff }: OptionSwitchProps) {
  const { t } = useTranslation();
  const saving = useSaveOptions();
  const checked = options[optionKey] === 'true';
  const flip = async (next: boolean) => {
    if (!next && confirmOff && !(await confirmOff())) return;
    saving.mutate([[optionKey, String(next)]]);
  };
  const label = t(`settingAdmin.option.${optionKey}`);
  return (
    <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
      <Switch checked={checked} loading={saving.isPending} onChange={(next) => void flip(next)} aria-label={label} />
      <span>{label}</span>
    </Flex>
  );
}
