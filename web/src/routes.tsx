import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './components/layout/app-layout';
import { RouteError } from './components/route-error/route-error';
import { PrivateRoute, type Access } from './components/route-guard/private-route';

/** One console route: its path, the lazily loaded page and who may see it. */
export interface RouteDefinition {
  path: string;
  page: LazyExoticComponent<ComponentType>;
  access: Access;
}

const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

/** The route table of spec section 2. */
const routeDefinitions: RouteDefinition[] = [
  { path: '/', access: 'public', page: page(() => import('./pages/home/home-page')) },
  { path: '/login', access: 'public', page: page(() => import('./pages/login/login-page')) },
  { path: '/register', access: 'public', page: page(() => import('./pages/register/register-page')) },
  { path: '/reset', access: 'public', page: page(() => import('./pages/reset/reset-request-page')) },
  { path: '/user/reset', access: 'public', page: page(() => import('./pages/reset/reset-confirm-page')) },
  { path: '/oauth/github', access: 'public', page: page(() => import('./pages/oauth/github-callback-page')) },
  { path: '/oauth/lark', access: 'public', page: page(() => import('./pages/oauth/lark-callback-page')) },
  { path: '/about', access: 'public', page: page(() => import('./pages/about/about-page')) },
  { path: '/chat', access: 'public', page: page(() => import('./pages/chat/chat-page')) },
  { path: '/setting', access: 'signedIn', page: page(() => import('./pages/setting/setting-page')) },
  { path: '/channel', access: 'admin', page: page(() => import('./pages/channel/channel-list-page')) },
  { path: '/channel/add', access: 'admin', page: page(() => import('./pages/channel/channel-edit-page')) },
  { path: '/channel/edit/:id', access: 'admin', page: page(() => import('./pages/channel/channel-edit-page')) },
  { path: '/token', access: 'signedIn', page: page(() => import('./pages/token/token-list-page')) },
  { path: '/token/add', access: 'signedIn', page: page(() => import('./pages/token/token-edit-page')) },
  { path: '/token/edit/:id', access: 'signedIn', page: page(() => import('./pages/token/token-edit-page')) },
  { path: '/redemption', access: 'admin', page: page(() => import('./pages/redemption/redemption-list-page')) },
  { path: '/redemption/add', access: 'admin', page: page(() => import('./pages/redemption/redemption-edit-page')) },
  {
    path: '/redemption/edit/:id',
    access: 'admin',
    page: page(() => import('./pages/redemption/redemption-edit-page')),
  },
  { path: '/user', access: 'admin', page: page(() => import('./pages/user/user-list-page')) },
  { path: '/user/add', access: 'admin', page: page(() => import('./pages/user/user-add-page')) },
  { path: '/user/edit/:id', access: 'admin', page: page(() => import('./pages/user/user-edit-page')) },
  { path: '/user/edit', access: 'signedIn', page: page(() => import('./pages/user/user-edit-page')) },
  { path: '/topup', access: 'signedIn', page: page(() => import('./pages/topup/topup-page')) },
  { path: '/log', access: 'signedIn', page: page(() => import('./pages/log/log-page')) },
  { path: '/status', access: 'signedIn', page: page(() => import('./pages/status/status-page')) },
  { path: '*', access: 'public', page: page(() => import('./pages/not-found/not-found-page')) },
];

function toRoute({ path, page: Page, access }: RouteDefinition): RouteObject {
  const element = (
    <PrivateRoute access={access}>
      <Page />
    </PrivateRoute>
  );
  return path === '/' ? { index: true, element } : { path, element };
}

/** Routes under the layout, for createBrowserRouter or a memory router in tests. */
const routeObjects: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [{ errorElement: <RouteError />, children: routeDefinitions.map(toRoute) }],
  },
];

export const createAppRouter = () => createBrowserRouter(routeObjects, { basename: '/' });
