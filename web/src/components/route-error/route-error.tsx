import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NoticeScreen } from '../notice-screen/notice-screen';

function describe(error: unknown): { status?: number; message: string } {
  if (isRouteErrorResponse(error)) return { status: error.status, message: error.statusText || String(error.data) };
  if (error instanceof Error) return { message: error.message };
  return { message: String(error) };
}

/** The router's error screen: 'Unexpected Application Error!' with status and message. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { status, message } = describe(error);
  return (
    <NoticeScreen
      title={t('common.routeError.title')}
      detail={
        <code data-testid="route-error">
          {status !== undefined ? `${status} ` : ''}
          {message}
        </code>
      }
      action={
        <Button type="primary" href="/">
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
