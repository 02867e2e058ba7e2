import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { isAdmin } from '../../lib/roles';
import { useUser } from '../../stores/user.store';
import { NoticeScreen } from '../notice-screen/notice-screen';

export type Access = 'public' | 'signedIn' | 'admin';

export interface PrivateRouteProps {
  access: Access;
  children: ReactNode;
}

/** Sends visitors without a stored user to /login; admin pages tell ordinary users they may not enter. */
export function PrivateRoute({ access, children }: PrivateRouteProps) {
  const user = useUser();
  const location = useLocation();
  const { t } = useTranslation();
  if (access === 'public') return <>{children}</>;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (access === 'admin' && !isAdmin(user)) {
    return <NoticeScreen title="403" detail={t('common.noPermission')} />;
  }
  return <>{children}</>;
}
