import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchStatus } from '../api/status';
import type { ServerStatus } from '../api/types';
import { notify } from '../lib/notify';
import { shouldShowNewVersion } from '../lib/version';
import { applyStatus } from '../stores/status.store';

/** The one load of /api/status (a second mount, as StrictMode makes in development, shares it). */
let statusLoad: Promise<ServerStatus> | null = null;

/**
 * Starts the one load of /api/status. main.tsx calls it first thing, so the request runs while the page's code
 * and texts load instead of after them (issue 33 point 9: it went out after ≈ 50 chunks).
 */
export function loadStatusOnce(): Promise<ServerStatus> {
  if (!statusLoad) {
    statusLoad = fetchStatus();
    // Handled where it is read (useStatusLoader); not an unhandled rejection before the layout mounts.
    statusLoad.catch(() => undefined);
  }
  return statusLoad;
}

/**
 * Loads /api/status once at start, stores it, and announces a newer server version. A plain call rather than a
 * query: the query client comes with the pages (components/layout/page-app.tsx), and nothing else reads this answer.
 */
export function useStatusLoader(): void {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ServerStatus>();
  useEffect(() => {
    let mounted = true;
    loadStatusOnce().then(
      (answer) => {
        if (mounted) setStatus(answer);
      },
      () => {
        if (mounted) notify.error(t('common.error.statusLoad'));
      },
    );
    return () => {
      mounted = false;
    };
  }, [t]);
  useEffect(() => {
    if (!status) return;
    applyStatus(status);
    if (shouldShowNewVersion(status.version, import.meta.env.VITE_APP_VERSION)) {
      notify.notice(t('common.newVersion', { version: status.version }), 'new-version');
    }
    // Once per answer; a language switch does not announce the version again.
  }, [status]);
}
