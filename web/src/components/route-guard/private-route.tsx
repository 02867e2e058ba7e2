import { Button, Flex } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
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
    return <NoticeScreen title="403" detail={t('common.noPermission')} action={<WayBack />} />;
  }
  return <>{children}</>;
}

/** Back to the page before (when this tab came from one) and home, so a refused page is no dead end. */
function WayBack() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The first entry of a tab's history has the key 'default': there is no page of ours to go back to.
  const cameFromPage = useLocation().key !== 'default';
  return (
    <Flex gap={8} wrap justify="center">
      {cameFromPage && <Button onClick={() => void navigate(-1)}>{t('common.goBack')}</Button>}
      <Button type="primary" onClick={() => void navigate('/')}>
        {t('common.backHome')}
      </Button>
    </Flex>
  );
}
