import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import type { Locale } from 'antd/es/locale';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrefersDark } from './hooks/use-media';
import { bindNotify } from './lib/notify';
import { createQueryClient } from './lib/query-client';

/** Hands antd's themed notification instance to the module-level toasts. */
function NotifyBinder() {
  const { notification } = AntApp.useApp();
  useEffect(() => bindNotify(notification), [notification]);
  return null;
}

function useAntLocale(language: string): Locale {
  const [locale, setLocale] = useState<Locale>(zhCN);
  useEffect(() => {
    let cancelled = false;
    if (language === 'en') {
      void import('antd/locale/en_US').then((module) => {
        if (!cancelled) setLocale(module.default);
      });
    } else {
      setLocale(zhCN);
    }
    return () => {
      cancelled = true;
    };
  }, [language]);
  return locale;
}

/** Theme (dark mode follows the system), antd locale, the App context for toasts and the query client. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const dark = usePrefersDark();
  const { i18n } = useTranslation();
  const locale = useAntLocale(i18n.language);
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
  return (
    <ConfigProvider
      locale={locale}
      theme={{
        algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { colorPrimary: '#1677ff', borderRadius: 8 },
        components: { Menu: { itemPaddingInline: 14 } },
      }}
    >
      <AntApp>
        <NotifyBinder />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
