import { ConfigProvider, theme } from 'antd';
import { lazy, Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { usePrefersDark } from './hooks/use-media';
import { useAntLocale } from './i18n';
import { consoleTheme } from './theme';

// The toasts' code loads just after the first render, not with the initial JavaScript: a toast asked for before
// it arrives waits in lib/notify's queue.
const NotifyHolder = lazy(() => import('./components/layout/notify-holder'));
// Asks for the password or a code when the server wants a recent re-authentication (decision 0030), and
// retries the call; loaded the same way.
const ReauthHost = lazy(() => import('./pages/setting/security/reauth-host'));

/** The text colour, font and size of the theme for everything inside (what antd's App element would give). */
function AppSurface({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div
      className="app-surface"
      style={{
        color: token.colorText,
        fontFamily: token.fontFamily,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
      }}
    >
      {children}
    </div>
  );
}

/**
 * Theme (dark mode follows the system), antd locale and the toasts. The query client and antd's App context (modal
 * and message) come with the pages (components/layout/page-app.tsx).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const dark = usePrefersDark();
  const locale = useAntLocale();
  const themeConfig = useMemo(() => consoleTheme(dark), [dark]);
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <ConfigProvider locale={locale} theme={themeConfig}>
      <AppSurface>
        <Suspense fallback={null}>
          <NotifyHolder />
          <ReauthHost />
        </Suspense>
        {children}
      </AppSurface>
    </ConfigProvider>
  );
}
