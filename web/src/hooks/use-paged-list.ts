import { useCallback, useEffect, useState } from 'react';

/** Rows per server page (one-api's ItemsPerPage). */
export const SERVER_PAGE_SIZE = 10;

interface PagedSource<T> {
  fetchPage(page: number): Promise<T[] | null | undefined>;
  search(keyword: string): Promise<T[] | null | undefined>;
}

/**
 * A list read one server page at a time, or the results of a search (an empty keyword goes back to the
 * first page). Failures are shown by the API client's common handler; the list keeps what it had.
 */
export function usePagedList<T extends { id: number }>(source: PagedSource<T>) {
  const [rows, setRows] = useState<T[]>([]);
  const [page, setPage] = useState(0);
  const [keyword, setKeyword] = useState('');
  const [searching, setSearching] = useState(false);
  const [loading, setLoading] = useState(false);
  const { fetchPage, search } = source;

  const load = useCallback(
    async (pageIndex: number, text: string) => {
      setLoading(true);
      try {
        const trimmed = text.trim();
        setRows((trimmed ? await search(trimmed) : await fetchPage(pageIndex)) ?? []);
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
    void load(0, '');
  }, [load]);

  /** Applies a change to one row in place, or removes it (null). */
  const replace = useCallback((id: number, change: Partial<T> | null) => {
    setRows((list) =>
      change === null
        ? list.filter((row) => row.id !== id)
        : list.map((row) => (row.id === id ? { ...row, ...change } : row)),
    );
  }, []);

  return {
    rows,
    page,
    keyword,
    setKeyword,
    searching,
    loading,
    /** More pages may exist when the current one is full. */
    hasMore: !searching && rows.length === SERVER_PAGE_SIZE,
    goTo: (pageIndex: number) => load(pageIndex, ''),
    search: () => load(0, keyword),
    refresh: () => load(page, keyword),
    replace,
  };
}
