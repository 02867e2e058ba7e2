import { useTranslation } from 'react-i18next';
import { StorageKey } from '../../lib/storage-keys';
import { useStatus } from '../../stores/status.store';
import DEFAULT_LOGO from '../layout/logo.svg';

/** System name and logo from the server status, the stored copies, or the defaults. */
export function useSystemBrand(): { systemName: string; logo: string } {
  const status = useStatus();
  const { t } = useTranslation();
  const systemName = status.system_name || localStorage.getItem(StorageKey.systemName) || t('common.defaultSystemName');
  const logo = status.logo || localStorage.getItem(StorageKey.logo) || DEFAULT_LOGO;
  return { systemName, logo };
}
