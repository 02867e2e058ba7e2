import { Layout } from 'antd';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useDocumentBrand } from '../../hooks/use-document-brand';
import { useStatusLoader } from '../../hooks/use-status-loader';
import { AppFooter } from '../footer/app-footer';
import { AppHeader } from '../header/app-header';
import { Loading } from '../loading/loading';

/** Header, the routed page (lazily loaded, with the loading placeholder) and footer. */
export function AppLayout() {
  useStatusLoader();
  useDocumentBrand();
  return (
    <Layout className="app-layout">
      <AppHeader />
      <Layout.Content className="app-content">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
      <AppFooter />
    </Layout>
  );
}
