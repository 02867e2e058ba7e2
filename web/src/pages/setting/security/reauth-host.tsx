import { Form, Input, Modal, Segmented, Typography } from 'antd';
import type { AxiosResponse } from 'axios';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, client } from '../../../api/client';
import { loadNamespaces } from '../../../i18n';
import { navigateTo } from '../../../lib/navigation';
import { notifyPasskeyFailure } from './passkeys-card';
import { fetchPasskeys, reauthWithPasskey } from './security-api';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Set on the one retry after a re-authentication, so a refusal cannot loop. */
    reauthRetried?: boolean;
  }
}

type Ask = (answer: boolean) => void;
type ShowModal = (answer: Ask) => void;
let showModal: ShowModal | null = null;
let inFlight: Promise<boolean> | null = null;
/** Waiting for the modal's host: this module's code runs before React mounts the host it exports. */
let hostMounted: ((show: ShowModal) => void) | null = null;
const hostWait = 10_000;

/** The mounted host's opener, waited for (at most hostWait) when a refusal comes before the host is mounted. */
function mountedHost(): Promise<ShowModal | null> {
  if (showModal) return Promise.resolve(showModal);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(showModal), hostWait);
    hostMounted = (show) => {
      clearTimeout(timer);
      resolve(show);
    };
  });
}

/** Opens the re-authentication modal (once for calls refused together); true once the server accepted it. */
function askForReauth(): Promise<boolean> {
  inFlight ??= Promise.all([mountedHost(), loadNamespaces(['setting'])])
    .then(
      ([show]) =>
        new Promise<boolean>((resolve) => {
          if (show) show(resolve);
          else resolve(false);
        }),
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

const refusal = (response: AxiosResponse): Record<string, unknown> | undefined => {
  const body = response.data as { success?: boolean; data?: unknown } | undefined;
  if (!body || body.success !== false || !body.data || typeof body.data !== 'object') return undefined;
  return body.data as Record<string, unknown>;
};

// Every call the server refuses with `require_reauth` (price writes, a new access token: decision 0030) asks for
// the password, a code or one of the user's passkeys in a modal and is sent again once; one refused with `require_2fa_setup` (AdminRequire2FA) leads to the
// personal settings, where the second factor is set up.
client.interceptors.response.use(async (response) => {
  const data = refusal(response);
  if (data?.require_2fa_setup === true && !window.location.pathname.startsWith('/setting')) void navigateTo('/setting');
  if (data?.require_reauth !== true || response.config.reauthRetried) return response;
  if (!(await askForReauth())) return response;
  return client.request({ ...response.config, reauthRetried: true });
});

type Method = 'password' | 'code' | 'passkey';

/** The re-authentication modal, mounted once by the app (app.tsx). */
export default function ReauthHost() {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<Ask | null>(null);
  const [method, setMethod] = useState<Method>('password');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  // Offered once the user is known to have a passkey (read each time the modal opens).
  const [hasPasskey, setHasPasskey] = useState(false);

  useEffect(() => {
    const show: ShowModal = (resolve) => {
      setValue('');
      setAnswer(() => resolve);
      fetchPasskeys(true).then(
        (passkeys) => setHasPasskey(passkeys.length > 0),
        () => setHasPasskey(false),
      );
    };
    showModal = show;
    hostMounted?.(show);
    hostMounted = null;
    return () => {
      showModal = null;
    };
  }, []);

  const close = (result: boolean) => {
    answer?.(result);
    setAnswer(null);
    setValue('');
    setMethod('password');
  };

  const usePasskey = method === 'passkey' && hasPasskey;
  const submit = async () => {
    if (!usePasskey && !value) return;
    setBusy(true);
    try {
      if (usePasskey) await reauthWithPasskey();
      else
        await api.post('/api/user/reauth', method === 'password' ? { password: value } : { totp_code: value.trim() });
      close(true);
    } catch (error) {
      // the common handler has shown a refusal; a cancelled browser prompt is told here. The modal stays.
      if (usePasskey) notifyPasskeyFailure(error, t('setting.security.passkeys.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={answer !== null}
      title={t('setting.security.reauth.title')}
      okText={usePasskey ? t('setting.security.reauth.usePasskey') : t('setting.security.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      okButtonProps={{ disabled: !usePasskey && !value }}
      onOk={() => void submit()}
      onCancel={() => close(false)}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('setting.security.reauth.hint')}</Typography.Paragraph>
      <Segmented<Method>
        value={method}
        onChange={(next) => {
          setMethod(next);
          setValue('');
        }}
        options={[
          { value: 'password', label: t('setting.security.reauth.password') },
          { value: 'code', label: t('setting.security.reauth.code') },
          ...(hasPasskey ? [{ value: 'passkey' as const, label: t('setting.security.reauth.passkey') }] : []),
        ]}
        style={{ marginBottom: 12 }}
      />
      {usePasskey ? (
        <Typography.Paragraph>{t('setting.security.reauth.passkeyHint')}</Typography.Paragraph>
      ) : (
        <Form layout="vertical" onFinish={() => void submit()}>
          <Form.Item
            label={method === 'password' ? t('setting.security.reauth.password') : t('setting.security.reauth.code')}
            htmlFor="reauth-secret"
          >
            {method === 'password' ? (
              <Input.Password
                id="reauth-secret"
                value={value}
                onChange={(event) => setValue(event.target.value)}
                autoComplete="current-password"
                autoFocus
              />
            ) : (
              <Input
                id="reauth-secret"
                value={value}
                onChange={(event) => setValue(event.target.value)}
                autoComplete="one-time-code"
                placeholder={t('setting.security.twoFactor.codePlaceholder')}
                autoFocus
              />
            )}
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
