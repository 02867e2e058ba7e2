import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { queryKeys, type Resource } from '../lib/query-keys';

/** Rows per server page (one-api's ItemsPerPage). */
export const SERVER_PAGE_SIZE = 10;

export interface PagedSource<T, O extends string> {
  /** One server page in a server sort order ('' = the default order). */
  fetchPage(page: number, order: O | ''): Promise<T[] | null | undefined>;
  search(keyword: string): Promise<T[] | null | undefined>;
}

/** What the list shows: a server page in a sort order, or the results of a search (non-empty `search`). */
interface ListView<O extends string> {
  page: number;
  order: O | '';
  search: string;
}

/** Rows the list has no total for: one more page is offered while the current page is full. */
export const pagerTotal = (page: number, hasMore: boolean): number =>
  (page + 1) * SERVER_PAGE_SIZE + (hasMore ? SERVER_PAGE_SIZE : 0);

/**
 * A list of a resource read one server page at a time in a server sort order, or the results of a search
 * (an empty keyword goes back to the first page). Rows stay on screen while the next view loads; failures
 * are shown by the API client.
 */
export function usePagedList<T, O extends string = never>(resource: Resource, source: PagedSource<T, O>) {
  const [view, setView] = useState<ListView<O>>({ page: 0, order: '', search: '' });
  const [keyword, setKeyword] = useState('');
  const query = useQuery({
    queryKey: queryKeys.list(resource, view),
    queryFn: async () =>
      (view.search ? await source.search(view.search) : await source.fetchPage(view.page, view.order)) ?? [],
    placeholderData: keepPreviousData,
  });
  const rows = query.data ?? [];
  const searching = view.search !== '';

  const show = (next: ListView<O>) => {
    if (next.page === view.page && next.order === view.order && next.search === view.search) void query.refetch();
    else setView(next);
  };
  const showKeyword = (page: number) => {
    const search = keyword.trim();
    show({ page: search ? 0 : page, order: view.order, search });
  };

  return {
    rows,
    page: view.page,
    order: view.order,
    keyword,
    setKeyword,
    searching,
    loading: query.isFetching,
    /** More pages may exist when the current one is full. */
    hasMore: !searching && rows.length === SERVER_PAGE_SIZE,
    goTo: (page: number) => show({ page, order: view.order, search: '' }),
    sortBy: (order: O | '') => show({ page: 0, order, search: '' }),
    search: () => showKeyword(0),
    refresh: () => showKeyword(view.page),
  };
}
