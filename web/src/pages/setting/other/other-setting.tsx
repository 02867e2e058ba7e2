import { Card, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OptionField } from '../operation/option-fields';
import { OptionSection } from '../operation/option-section';
import { useOptions } from '../operation/use-options';
import { UpdateCheck } from './update-check';

/**
 * Themes this console has: one. The server still accepts one-api's names (berry, air) from old clients, but
 * offering them here would be a setting that changes nothing (issue 33 point 6).
 */
const THEMES = ['default'] as const;

const NOTICE: OptionField[] = [{ key: 'Notice', kind: 'textarea', hintKey: 'settingAdmin.hint.markdown' }];
const BRAND: OptionField[] = [
  { key: 'SystemName', kind: 'text' },
  { key: 'Theme', kind: 'select', choices: THEMES, hintKey: 'settingAdmin.hint.theme' },
  { key: 'Logo', kind: 'text', placeholderKey: 'settingAdmin.placeholder.url' },
];
const HOME: OptionField[] = [{ key: 'HomePageContent', kind: 'textarea', hintKey: 'settingAdmin.hint.homePage' }];
const ABOUT: OptionField[] = [{ key: 'About', kind: 'textarea', hintKey: 'settingAdmin.hint.about' }];
const FOOTER: OptionField[] = [{ key: 'Footer', kind: 'textarea', hintKey: 'settingAdmin.hint.footer' }];

/** Other settings (admin): notice, system name, theme, logo, home page, about, footer, update check. */
export function OtherSetting() {
  const { t } = useTranslation();
  const options = useOptions();
  if (!options) return <Skeleton active />;
  const common = { options };
  return (
    <>
      <OptionSection titleKey="settingAdmin.section.notice" fields={NOTICE} {...common} />
      <OptionSection titleKey="settingAdmin.section.brand" fields={BRAND} {...common} />
      <OptionSection titleKey="settingAdmin.section.home" fields={HOME} {...common} />
      <OptionSection titleKey="settingAdmin.section.about" fields={ABOUT} {...common} />
      <OptionSection titleKey="settingAdmin.section.footer" fields={FOOTER} {...common} />
      <Card title={t('settingAdmin.section.update')}>
        <UpdateCheck />
      </Card>
    </>
  );
}
