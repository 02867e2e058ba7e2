import { Alert, Button, Flex, Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { joinWhitelist } from '../operation/option-fields';
import { useSaveOptions, type OptionMap } from '../operation/use-options';

/**
 * The email-domain whitelist: entries typed as tags; empty and duplicate entries are dropped. As the spec
 * asks, it is saved only when it changed and an SMTP token is entered
 * beside it (the token is saved with it).
 */
export function EmailWhitelist({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const saving = useSaveOptions();
  const original = options.EmailDomainWhitelist ?? '';
  const [smtpToken, setSmtpToken] = useState('');
  const [entries, setEntries] = useState<string[]>(() => original.split(',').filter(Boolean));
  useEffect(() => setEntries(original.split(',').filter(Boolean)), [original]);

  const save = () => {
    const joined = joinWhitelist(entries);
    if (joined === original) return;
    if (!smtpToken) {
      notify.warning(t('settingAdmin.whitelist.needsSmtpToken'));
      return;
    }
    saving.mutate(
      [
        ['SMTPToken', smtpToken],
        ['EmailDomainWhitelist', joined],
      ],
      { onSuccess: () => setSmtpToken('') },
    );
  };

  return (
    <Flex vertical gap={8} style={{ marginBottom: 12 }}>
      <Alert type="info" title={t('settingAdmin.whitelist.hint')} />
      <Select
        mode="tags"
        value={entries}
        onChange={setEntries}
        tokenSeparators={[',', ' ']}
        placeholder={t('settingAdmin.whitelist.placeholder')}
        aria-label={t('settingAdmin.option.EmailDomainWhitelist')}
        open={false}
      />
      <Input.Password
        value={smtpToken}
        onChange={(event) => setSmtpToken(event.target.value)}
        placeholder={t('settingAdmin.whitelist.smtpToken')}
        aria-label={t('settingAdmin.whitelist.smtpToken')}
        autoComplete="new-password"
      />
      <div>
        <Button onClick={save}>{t('settingAdmin.whitelist.save')}</Button>
      </div>
    </Flex>
  );
}
