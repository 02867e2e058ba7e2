import { App, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OptionField } from '../operation/option-fields';
import { OptionSection } from '../operation/option-section';
import { OptionSwitch } from '../operation/option-switch';
import { useOptions } from '../operation/use-options';
import { EmailWhitelist } from './email-whitelist';

const SERVER: OptionField[] = [
  { key: 'ServerAddress', kind: 'text', placeholderKey: 'settingAdmin.placeholder.serverAddress' },
];
const SMTP: OptionField[] = [
  { key: 'SMTPServer', kind: 'text' },
  { key: 'SMTPPort', kind: 'text', placeholderKey: 'settingAdmin.placeholder.smtpPort' },
  { key: 'SMTPAccount', kind: 'text' },
  { key: 'SMTPFrom', kind: 'text' },
  { key: 'SMTPToken', kind: 'secret' },
];
const GITHUB: OptionField[] = [
  { key: 'GitHubClientId', kind: 'text' },
  { key: 'GitHubClientSecret', kind: 'secret' },
];
const LARK: OptionField[] = [
  { key: 'LarkClientId', kind: 'text' },
  { key: 'LarkClientSecret', kind: 'secret' },
];
const WECHAT: OptionField[] = [
  { key: 'WeChatServerAddress', kind: 'text' },
  { key: 'WeChatServerToken', kind: 'secret' },
  { key: 'WeChatAccountQRCodeImageURL', kind: 'text' },
];
const PUSHER: OptionField[] = [
  { key: 'MessagePusherAddress', kind: 'text' },
  { key: 'MessagePusherToken', kind: 'secret' },
];
const TURNSTILE: OptionField[] = [
  { key: 'TurnstileSiteKey', kind: 'text' },
  { key: 'TurnstileSecretKey', kind: 'secret' },
];

const LOGIN_SWITCHES = [
  'PasswordRegisterEnabled',
  'EmailVerificationEnabled',
  'GitHubOAuthEnabled',
  'WeChatAuthEnabled',
  'RegisterEnabled',
  'TurnstileCheckEnabled',
  'AdminRequire2FA',
];

/** System settings (admin): address, sign-in and sign-up switches, whitelist, SMTP, OAuth, WeChat, pusher, Turnstile. */
export function SystemSetting() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const options = useOptions();
  if (!options) return <Skeleton active />;
  const common = { options };
  const confirmPasswordLoginOff = () =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('settingAdmin.passwordLogin.title'),
        content: t('settingAdmin.passwordLogin.warning'),
        okText: t('settingAdmin.passwordLogin.ok'),
        cancelText: t('common.cancel'),
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });
  return (
    <>
      <OptionSection titleKey="settingAdmin.section.server" fields={SERVER} {...common} />
      <OptionSection titleKey="settingAdmin.section.login" fields={[]} {...common}>
        <OptionSwitch optionKey="PasswordLoginEnabled" confirmOff={confirmPasswordLoginOff} {...common} />
        {LOGIN_SWITCHES.map((key) => (
          <OptionSwitch key={key} optionKey={key} {...common} />
        ))}
      </OptionSection>
      <OptionSection titleKey="settingAdmin.section.whitelist" fields={[]} {...common}>
        <OptionSwitch optionKey="EmailDomainRestrictionEnabled" {...common} />
        <EmailWhitelist options={options} />
      </OptionSection>
      <OptionSection titleKey="settingAdmin.section.smtp" fields={SMTP} {...common} />
      <OptionSection titleKey="settingAdmin.section.github" fields={GITHUB} {...common} />
      <OptionSection titleKey="settingAdmin.section.lark" fields={LARK} {...common} />
      <OptionSection titleKey="settingAdmin.section.wechat" fields={WECHAT} {...common} />
      <OptionSection titleKey="settingAdmin.section.pusher" fields={PUSHER} {...common} />
      <OptionSection titleKey="settingAdmin.section.turnstile" fields={TURNSTILE} {...common} />
    </>
  );
}
