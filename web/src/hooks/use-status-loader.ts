import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchStatus } from '../api/status';
import { notify } from '../lib/notify';
import { queryKeys } from '../lib/query-keys';
import { shouldShowNewVersion } from '../lib/version';
import { applyStatus } from '../stores/status.store';

/** Loads /api/status once at start, stores it, and announces a newer server version. */
export function useStatusLoader(): void {
  const { t } = useTranslation();
  const { data: status } = useQuery({
    queryKey: queryKeys.read('status', 'server'),
    queryFn: fetchStatus,
    staleTime: Infinity,
    meta: { failureMessage: 'common.error.statusLoad' },
  });
  useEffect(() => {
    if (!status) return;
    applyStatus(status);
    if (shouldShowNewVersion(status.version, import.meta.env.VITE_APP_VERSION)) {
      notify.notice(t('common.newVersion', { version: status.version }), 'new-version');
    }
    // Once per answer; a language switch does not announce the version again.
  }, [status]);
}
