import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGES, type Language } from '../../i18n';

/** Switches the interface language; the choice is remembered. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : 'zh-CN';
  const shown = t(`header.language.short.${current}`);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((language) => ({ key: language, label: t(`header.language.${language}`) })),
        onClick: ({ key }) => void changeLanguage(key as Language),
      }}
    >
      <Button
        type="text"
        icon={<TranslationOutlined aria-hidden />}
        // The name starts with the text shown ('中文'), so that speech input can say what it sees.
        aria-label={t('header.language.switchNamed', { current: shown })}
        data-testid="language-switch"
      >
        {shown}
      </Button>
    </Dropdown>
  );
}
