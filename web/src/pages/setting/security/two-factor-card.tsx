import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Input, QRCode, Skeleton, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import {
  disableTwoFactor,
  enableTwoFactor,
  fetchTwoFactorStatus,
  setUpTwoFactor,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from './security-api';

/**
 * Two-factor authentication (TOTP): set up with the otpauth URL as a QR code (and the secret as text), the
 * backup codes shown once, enabled by a first code; turned off with a code.
 */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus((await fetchTwoFactorStatus()) ?? { enabled: false, backup_codes_left: 0 });
    } catch {
      setStatus({ enabled: false, backup_codes_left: 0 });
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch {
      // shown by the common handler
    } finally {
      setBusy(false);
    }
  };

  const begin = () =>
    run(async () => {
      setSetup(await setUpTwoFactor());
      setCode('');
    });

  const enable = () =>
    run(async () => {
      await enableTwoFactor(code.trim());
      notify.success(t('setting.security.twoFactor.enabled'));
      setCode('');
      // The backup codes stay on screen until the user closes them: they are never shown again.
      await load();
    });

  const disable = () =>
    run(async () => {
      await disableTwoFactor(code.trim());
      notify.success(t('setting.security.twoFactor.disabled'));
      setCode('');
      setSetup(null);
      await load();
    });

  const codeInput = (
    <Input
      value={code}
      onChange={(event) => setCode(event.target.value)}
      placeholder={t('setting.security.twoFactor.codePlaceholder')}
      aria-label={t('setting.security.twoFactor.code')}
      autoComplete="one-time-code"
      inputMode="text"
      maxLength={64}
      style={{ maxWidth: 220 }}
    />
  );

  return (
    <Card
      title={
        <Flex gap={8} align="center">
          <SafetyCertificateOutlined />
          {t('setting.security.twoFactor.title')}
          {status?.enabled ? <Tag color="green">{t('setting.security.twoFactor.on')}</Tag> : null}
        </Flex>
      }
    >
      {status === null ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : (
        <Flex vertical gap={12}>
          {setup ? (
            <Flex vertical gap={12} data-testid="two-factor-setup">
              {status.enabled ? null : (
                <Typography.Paragraph style={{ margin: 0 }}>
                  {t('setting.security.twoFactor.scan')}
                </Typography.Paragraph>
              )}
              {status.enabled ? null : (
                <Flex gap={16} wrap align="center">
                  <QRCode value={setup.otpauth_url} size={168} bordered />
                  <Flex vertical gap={4}>
                    <Typography.Text type="secondary">{t('setting.security.twoFactor.secret')}</Typography.Text>
                    <Typography.Text code copyable data-testid="two-factor-secret">
                      {setup.secret}
                    </Typography.Text>
                  </Flex>
                </Flex>
              )}
              <Alert
                type="warning"
                showIcon
                title={t('setting.security.twoFactor.backupTitle')}
                description={
                  <Flex vertical gap={8}>
                    <span>{t('setting.security.twoFactor.backupHint')}</span>
                    <Typography.Paragraph
                      copyable={{ text: setup.backup_codes.join('\n') }}
                      style={{ margin: 0 }}
                      data-testid="backup-codes"
                    >
                      {setup.backup_codes.map((backupCode) => (
                        <code key={backupCode} style={{ display: 'inline-block', marginRight: 12 }}>
                          {backupCode}
                        </code>
                      ))}
                    </Typography.Paragraph>
                  </Flex>
                }
              />
              {status.enabled ? (
                <Button style={{ alignSelf: 'flex-start' }} onClick={() => setSetup(null)}>
                  {t('setting.security.twoFactor.savedCodes')}
                </Button>
              ) : (
                <Flex gap={8} wrap>
                  {codeInput}
                  <Button type="primary" loading={busy} disabled={!code.trim()} onClick={() => void enable()}>
                    {t('setting.security.twoFactor.enable')}
                  </Button>
                </Flex>
              )}
            </Flex>
          ) : status.enabled ? (
            <Flex vertical gap={12}>
              <Typography.Text>
                {t('setting.security.twoFactor.statusOn', { count: status.backup_codes_left })}
              </Typography.Text>
              <Flex gap={8} wrap>
                {codeInput}
                <Button danger loading={busy} disabled={!code.trim()} onClick={() => void disable()}>
                  {t('setting.security.twoFactor.disable')}
                </Button>
              </Flex>
            </Flex>
          ) : (
            <Flex vertical gap={12}>
              <Typography.Text type="secondary">{t('setting.security.twoFactor.statusOff')}</Typography.Text>
              <Button type="primary" style={{ alignSelf: 'flex-start' }} loading={busy} onClick={() => void begin()}>
                {t('setting.security.twoFactor.setUp')}
              </Button>
            </Flex>
          )}
        </Flex>
      )}
    </Card>
  );
}
