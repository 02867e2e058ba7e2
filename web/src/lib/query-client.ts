import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import i18n from 'i18next';
import { needsReport } from '../api/client';
import { notify } from './notify';

/** How a failed query or mutation is reported beyond the API client's own toasts. */
interface FailureReport extends Record<string, unknown> {
  /** Translation key shown instead of the error (for silent calls whose failure the page words itself). */
  failureMessage?: string;
  /** The failure is not shown; set only where a comment says why. */
  ignoreFailure?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: FailureReport;
    mutationMeta: FailureReport;
  }
}

/** Shows a failure the API client has not shown yet (a silent call, or an error thrown outside it). */
function reportFailure(error: unknown, meta: FailureReport | undefined): void {
  if (meta?.ignoreFailure) return;
  if (meta?.failureMessage) notify.error(i18n.t(meta.failureMessage));
  else if (needsReport(error)) notify.error(error instanceof Error ? error.message : String(error));
}

/** The console's query client: each failure reported once, every visit of a page reading fresh data. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => reportFailure(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => reportFailure(error, mutation.meta),
    }),
    defaultOptions: {
      // A retry or a refetch on focus would repeat a failure's toast; the pages have refresh buttons.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
