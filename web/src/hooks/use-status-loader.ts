import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchStatus } from '../api/status';
import { notify } from '../lib/notify';
import { shouldShowNewVersion } from '../lib/version';
import { applyStatus } from '../stores/status.store';

let loaded = false;

/** Loads /api/status once at start, stores it, and announces a newer server version. */
export function useStatusLoader(): void {
  const { t } = useTranslation();
  useEffect(() => {
    if (loaded) return;
    loaded = true;
    fetchStatus()
      .then((status) => {
        applyStatus(status);
        if (shouldShowNewVersion(status.version, import.meta.env.VITE_APP_VERSION)) {
          notify.notice(t('common.newVersion', { version: status.version }), 'new-version');
        }
      })
      .catch(() => notify.error(t('common.error.statusLoad')));
  }, [t]);
}
