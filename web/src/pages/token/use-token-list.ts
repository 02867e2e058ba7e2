import { useCallback, useEffect, useState } from 'react';
import { fetchTokenList, searchTokens, type TokenDetails, type TokenOrder } from '../../api/token';
import { StorageKey, writeJson } from '../../lib/storage-keys';

export const TOKEN_PAGE_SIZE = 10;

/** The token list state: server pages in a server sort order, or search results. */
export function useTokenList() {
  const [tokens, setTokens] = useState<TokenDetails[]>([]);
  const [page, setPage] = useState(0);
  const [order, setOrder] = useState<TokenOrder>('');
  const [keyword, setKeyword] = useState('');
  const [searching, setSearching] = useState(false);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (pageIndex: number, sortOrder: TokenOrder, search: string) => {
    setLoading(true);
    try {
      const trimmed = search.trim();
      const rows = (trimmed ? await searchTokens(trimmed) : await fetchTokenList(pageIndex, sortOrder)) ?? [];
      setTokens(rows);
      setSearching(Boolean(trimmed));
      setPage(trimmed ? 0 : pageIndex);
      if (!trimmed && pageIndex === 0)
        writeJson(
          StorageKey.tokenList,
          rows.map(({ name, key }) => ({ name, key })),
        );
    } catch {
      // shown by the common handler
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(0, '', '');
  }, [load]);

  const replace = useCallback((id: number, change: Partial<TokenDetails> | null) => {
    setTokens((rows) =>
      change === null
        ? rows.filter((row) => row.id !== id)
        : rows.map((row) => (row.id === id ? { ...row, ...change } : row)),
    );
  }, []);

  return {
    tokens,
    page,
    order,
    keyword,
    setKeyword,
    searching,
    loading,
    hasMore: !searching && tokens.length === TOKEN_PAGE_SIZE,
    goTo: (pageIndex: number) => load(pageIndex, order, ''),
    sortBy: (next: TokenOrder) => {
      setOrder(next);
      return load(0, next, '');
    },
    search: () => load(0, order, keyword),
    refresh: () => load(page, order, keyword),
    replace,
  };
}
