import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { createQueryClient } from '../../lib/query-client';

/** One query client for every page: its cache outlives the page that filled it. */
const pagesQueryClient = createQueryClient();

/**
 * What every page runs in: the query client and antd's App context (App.useApp(): modal and message). Both load
 * with the first page rather than with the shell, which uses neither; they were a sixth of the initial JavaScript.
 */
export function PageApp({
  children,
  queryClient = pagesQueryClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <App component={false}>{children}</App>
    </QueryClientProvider>
  );
}
