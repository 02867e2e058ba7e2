import { theme } from 'antd';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useDocumentBrand } from '../../hooks/use-document-brand';
import { useStatusLoader } from '../../hooks/use-status-loader';
import { AppFooter } from '../footer/app-footer';
import { AppHeader } from '../header/app-header';
import { Loading } from '../loading/loading';

/**
 * Header, the routed page (lazily loaded, with the loading placeholder) and footer, as the page's banner, main and
 * contentinfo landmarks; plain elements rather than antd's Layout, whose sider code the console never uses.
 */
export function AppLayout() {
  useStatusLoader();
  useDocumentBrand();
  const { token } = theme.useToken();
  return (
    <div className="app-layout" style={{ background: token.colorBgLayout }}>
      <AppHeader />
      <main className="app-content">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <AppFooter />
    </div>
  );
}
