import { useCallback, useEffect, useState } from 'react';

/** Rows per server page (one-api's ItemsPerPage). */
export const SERVER_PAGE_SIZE = 10;

interface PagedSource<T, O extends string> {
  /** One server page in a server sort order ('' = the default order). */
  fetchPage(page: number, order: O | ''): Promise<T[] | null | undefined>;
  search(keyword: string): Promise<T[] | null | undefined>;
}

/** A list with one row changed in place, or removed (null). */
export function replaceRow<T extends { id: number }>(rows: T[], id: number, change: Partial<T> | null): T[] {
  return change === null
    ? rows.filter((row) => row.id !== id)
    : rows.map((row) => (row.id === id ? { ...row, ...change } : row));
}

/**
 * A list read one server page at a time in a server sort order, or the results of a search (an empty
 * keyword goes back to the first page). Failures are shown by the API client's common handler; the list
 * keeps what it had.
 */
export function usePagedList<T extends { id: number }, O extends string = never>(source: PagedSource<T, O>) {
  const [rows, setRows] = useState<T[]>([]);
  const [page, setPage] = useState(0);
  const [order, setOrder] = useState<O | ''>('');
  const [keyword, setKeyword] = useState('');
  const [searching, setSearching] = useState(false);
  const [loading, setLoading] = useState(false);
  const { fetchPage, search } = source;

  const load = useCallback(
    async (pageIndex: number, sortOrder: O | '', text: string) => {
      setLoading(true);
      try {
        const trimmed = text.trim();
        setRows((trimmed ? await search(trimmed) : await fetchPage(pageIndex, sortOrder)) ?? []);
        setSearching(Boolean(trimmed));
        setPage(trimmed ? 0 : pageIndex);
      } catch {
        // shown by the common handler
      } finally {
        setLoading(false);
      }
    },
    [fetchPage, search],
  );

  useEffect(() => {
    void load(0, '', '');
  }, [load]);

  const replace = useCallback((id: number, change: Partial<T> | null) => {
    setRows((list) => replaceRow(list, id, change));
  }, []);

  return {
    rows,
    page,
    order,
    keyword,
    setKeyword,
    searching,
    loading,
    /** More pages may exist when the current one is full. */
    hasMore: !searching && rows.length === SERVER_PAGE_SIZE,
    goTo: (pageIndex: number) => load(pageIndex, order, ''),
    sortBy: (next: O | '') => {
      setOrder(next);
      return load(0, next, '');
    },
    search: () => load(0, order, keyword),
    refresh: () => load(page, order, keyword),
    /** Applies a change to one row in place, or removes it (null). */
    replace,
  };
}
