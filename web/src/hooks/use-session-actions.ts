import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '../api/user';
import { notify } from '../lib/notify';
import { signOut } from '../stores/user.store';

/** Logout: tells the server, clears the stored user, goes to /login. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return useCallback(async () => {
    try {
      await logout();
    } catch {
      // the local session ends either way
    }
    signOut();
    notify.success(t('header.logoutSuccess'));
    navigate('/login');
  }, [navigate, t]);
}
