import { use, type ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { AppLayout } from './components/layout/app-layout';
import { RouteError } from './components/route-error/route-error';
import { PrivateRoute, type Access } from './components/route-guard/private-route';
import { isAdmin, type RoleHolder } from './lib/roles';
import { readJson, StorageKey } from './lib/storage-keys';
import { loadNamespaces, type Namespace } from './i18n';

/** One console route: its path, its page (a file under pages/), who may see it and the texts its page shows. */
export interface RouteDefinition {
  path: string;
  /** The page file under pages/, without its extension. */
  module: string;
  access: Access;
  /** The texts files the page needs besides the shell's (i18n/index.ts); checked by routes.test.ts. */
  texts: Namespace[];
}

const pageModules = import.meta.glob<{ default: ComponentType }>('./pages/*/*-page.tsx');

/** A page's route component, and the start of its load (code, texts, App context) without rendering it. */
interface LazyPage {
  Page: ComponentType;
  preload: () => Promise<void>;
}

/**
 * A lazily loaded page inside antd's App context; its code, its texts and the App context load side by side, once,
 * whether the router renders the page first or main.tsx asks for it ahead (preloadRoute). A page loaded before it
 * renders shows at once: no suspense, no loading placeholder, none of React's 300 ms wait before revealing a
 * suspended page (React.lazy suspends even then).
 */
function lazyPage({ module, texts }: RouteDefinition): LazyPage {
  const load = pageModules[`./pages/${module}.tsx`];
  if (!load) throw new Error(`no page file pages/${module}.tsx`);
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const loadPage = () =>
    (loading ??= Promise.all([load(), import('./components/layout/page-app'), loadNamespaces(texts)]).then(
      ([{ default: Page }, { PageApp }]) => {
        loaded = function LoadedPage() {
          return (
            <PageApp>
              <Page />
            </PageApp>
          );
        };
        return loaded;
      },
    ));
  function RoutePage() {
    // The same promise on every render until it settles; a failure goes to the route's error element.
    const Page = loaded ?? use(loadPage());
    return <Page />;
  }
  return {
    Page: RoutePage,
    preload: () =>
      loadPage().then(
        () => undefined,
        // Shown when the router renders the page (its error element); nothing to report here.
        () => undefined,
      ),
  };
}

/** The route table of spec section 2. */
export const routeDefinitions: RouteDefinition[] = [
  { path: '/', access: 'public', module: 'home/home-page', texts: ['home'] },
  { path: '/login', access: 'public', module: 'login/login-page', texts: ['login', 'setting'] },
  { path: '/register', access: 'public', module: 'register/register-page', texts: ['register'] },
  { path: '/reset', access: 'public', module: 'reset/reset-request-page', texts: ['reset'] },
  { path: '/user/reset', access: 'public', module: 'reset/reset-confirm-page', texts: ['reset'] },
  { path: '/oauth/github', access: 'public', module: 'oauth/github-callback-page', texts: ['oauth', 'login'] },
  { path: '/oauth/lark', access: 'public', module: 'oauth/lark-callback-page', texts: ['oauth', 'login'] },
  { path: '/about', access: 'public', module: 'about/about-page', texts: ['about'] },
  { path: '/chat', access: 'public', module: 'chat/chat-page', texts: ['chat'] },
  {
    path: '/setting',
    access: 'signedIn',
    module: 'setting/setting-page',
    texts: ['setting', 'settingAdmin', 'register', 'price'],
  },
  { path: '/channel', access: 'admin', module: 'channel/channel-list-page', texts: ['channel'] },
  { path: '/channel/add', access: 'admin', module: 'channel/channel-edit-page', texts: ['channel'] },
  { path: '/channel/edit/:id', access: 'admin', module: 'channel/channel-edit-page', texts: ['channel'] },
  { path: '/token', access: 'signedIn', module: 'token/token-list-page', texts: ['token'] },
  { path: '/token/add', access: 'signedIn', module: 'token/token-edit-page', texts: ['token'] },
  { path: '/token/edit/:id', access: 'signedIn', module: 'token/token-edit-page', texts: ['token'] },
  { path: '/redemption', access: 'admin', module: 'redemption/redemption-list-page', texts: ['redemption'] },
  { path: '/redemption/add', access: 'admin', module: 'redemption/redemption-edit-page', texts: ['redemption'] },
  { path: '/redemption/edit/:id', access: 'admin', module: 'redemption/redemption-edit-page', texts: ['redemption'] },
  { path: '/user', access: 'admin', module: 'user/user-list-page', texts: ['user'] },
  { path: '/user/add', access: 'admin', module: 'user/user-add-page', texts: ['user'] },
  { path: '/user/edit/:id', access: 'admin', module: 'user/user-edit-page', texts: ['user', 'token'] },
  { path: '/user/edit', access: 'signedIn', module: 'user/user-edit-page', texts: ['user', 'token'] },
  { path: '/topup', access: 'signedIn', module: 'topup/topup-page', texts: ['topup'] },
  { path: '/log', access: 'signedIn', module: 'log/log-page', texts: ['log'] },
  { path: '/audit', access: 'admin', module: 'audit/audit-page', texts: ['audit'] },
  { path: '/status', access: 'signedIn', module: 'status/status-page', texts: ['status', 'channel'] },
  { path: '*', access: 'public', module: 'not-found/not-found-page', texts: [] },
];

/** One lazy page per page file, shared by the routes that show it (add and edit). */
const lazyPages = new Map<string, LazyPage>();
const pageOf = (definition: RouteDefinition): LazyPage => {
  const existing = lazyPages.get(definition.module);
  if (existing) return existing;
  const created = lazyPage(definition);
  lazyPages.set(definition.module, created);
  return created;
};

/** What preloadRoute needs of a route: its access and how to start loading its page. */
interface RouteHandle {
  access: Access;
  preload: () => Promise<void>;
}

function toRoute(definition: RouteDefinition): RouteObject {
  const { path, access } = definition;
  const { Page, preload } = pageOf(definition);
  const element = (
    <PrivateRoute access={access}>
      <Page />
    </PrivateRoute>
  );
  const handle: RouteHandle = { access, preload };
  return path === '/' ? { index: true, element, handle } : { path, element, handle };
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

/** Whether the guard (PrivateRoute) will show a page of this access to the stored user, rather than /login or 403. */
function pageWillShow(access: Access): boolean {
  if (access === 'public') return true;
  try {
    const user = readJson<RoleHolder | null>(StorageKey.user, null);
    return access === 'signedIn' ? user !== null : isAdmin(user);
  } catch {
    return false;
  }
}

/**
 * Starts loading the page of this address (its code, texts and the App context) at once, beside the shell's own
 * start, instead of after the first render reaches it (issue 33 point 9); settles when it is in (or failed). Only
 * the page shown: other routes load when visited, and a page the guard will not show (a visitor sent to /login, a
 * user refused an admin page) is not loaded.
 */
export function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routeObjects, pathname, '/');
  const handle = matches?.at(-1)?.route.handle as RouteHandle | undefined;
  if (!handle || !pageWillShow(handle.access)) return Promise.resolve();
  return handle.preload();
}
