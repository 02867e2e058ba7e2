import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app';
import { PageApp } from '../components/layout/page-app';
import { initI18n } from '../i18n';
import { createQueryClient } from '../lib/query-client';

initI18n();

/** Renders routes inside the app's providers and what the routes give each page (a fresh query client) at a start path. */
export function renderRoutes(
  routes: RouteObject[],
  path = '/',
): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <AppProviders>
      <PageApp queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </PageApp>
    </AppProviders>,
  );
  return { ...result, router };
}

/** Renders one element at a path, with a catch-all that shows where navigation went. */
export function renderPage(element: ReactElement, path = '/', pattern = '*') {
  return renderRoutes(
    [
      { path: pattern, element },
      { path: '/landed/*', element: <div data-testid="landed" /> },
    ],
    path,
  );
}
