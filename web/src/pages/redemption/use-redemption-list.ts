import { useCallback, useEffect, useState } from 'react';
import { fetchRedemptionPage, searchRedemptions, type Redemption } from '../../api/redemption';

export const REDEMPTION_PAGE_SIZE = 10;

/** Redemption codes, one server page at a time, or search results. */
export function useRedemptionList() {
  const [rows, setRows] = useState<Redemption[]>([]);
  const [page, setPage] = useState(0);
  const [keyword, setKeyword] = useState('');
  const [searching, setSearching] = useState(false);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (pageIndex: number, search: string) => {
    setLoading(true);
    try {
      const trimmed = search.trim();
      setRows((trimmed ? await searchRedemptions(trimmed) : await fetchRedemptionPage(pageIndex)) ?? []);
      setSearching(Boolean(trimmed));
      setPage(trimmed ? 0 : pageIndex);
    } catch {
      // shown by the common handler
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(0, '');
  }, [load]);

  const replace = useCallback((id: number, change: Partial<Redemption> | null) => {
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
    hasMore: !searching && rows.length === REDEMPTION_PAGE_SIZE,
    goTo: (pageIndex: number) => load(pageIndex, ''),
    search: () => load(0, keyword),
    refresh: () => load(page, keyword),
    replace,
  };
}
