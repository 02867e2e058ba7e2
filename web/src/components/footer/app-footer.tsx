import { theme } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StorageKey } from '../../lib/storage-keys';
import { useStatus } from '../../stores/status.store';
import { useSystemBrand } from '../header/use-system-brand';

// Loaded only when the server stores footer HTML: its sanitiser is not part of the initial JavaScript.
const HtmlContent = lazy(() =>
  import('../html-content/html-content').then(({ HtmlContent }) => ({ default: HtmlContent })),
);

/** Re-reads of the stored footer after start (spec section 4): 5 times, 200 ms apart. */
const FOOTER_REREAD = { times: 5, intervalMs: 200 } as const;

/** The footer: the server's footer HTML, sanitised, or a default line. */
export function AppFooter() {
  const { t } = useTranslation();
  const status = useStatus();
  const { token } = theme.useToken();
  const { systemName } = useSystemBrand();
  const [storedFooter, setStoredFooter] = useState(() => localStorage.getItem(StorageKey.footerHtml) ?? '');

  useEffect(() => {
    let reads = 0;
    const timer = window.setInterval(() => {
      reads += 1;
      setStoredFooter(localStorage.getItem(StorageKey.footerHtml) ?? '');
      if (reads >= FOOTER_REREAD.times) window.clearInterval(timer);
    }, FOOTER_REREAD.intervalMs);
    return () => window.clearInterval(timer);
  }, []);

  const footer = status.footer_html ?? storedFooter;
  return (
    <footer className="app-footer" data-testid="footer">
      {footer ? (
        <Suspense fallback={null}>
          <HtmlContent html={footer} />
        </Suspense>
      ) : (
        <span style={{ color: token.colorTextSecondary }}>
          {t('footer.default', { name: systemName, version: status.version ?? '' })}
        </span>
      )}
    </footer>
  );
}
