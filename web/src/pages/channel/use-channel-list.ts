import { useCallback, useEffect, useState } from 'react';
import { fetchChannelPage, searchChannels, type Channel } from '../../api/channel';

/** Rows per server page (one-api's ItemsPerPage). */
export const CHANNEL_PAGE_SIZE = 10;

/** The channel list state: one server page at a time, or the search results. */
export function useChannelList() {
  const [channels, setChannels] = useState<Channel[]>([]);
  const [page, setPage] = useState(0);
  const [keyword, setKeyword] = useState('');
  const [searching, setSearching] = useState(false);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async (pageIndex: number, search: string) => {
    setLoading(true);
    try {
      const trimmed = search.trim();
      const rows = trimmed ? await searchChannels(trimmed) : await fetchChannelPage(pageIndex);
      setChannels(rows ?? []);
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

  const replace = useCallback((id: number, change: Partial<Channel> | null) => {
    setChannels((rows) =>
      change === null
        ? rows.filter((row) => row.id !== id)
        : rows.map((row) => (row.id === id ? { ...row, ...change } : row)),
    );
  }, []);

  return {
    channels,
    page,
    keyword,
    setKeyword,
    searching,
    loading,
    /** More pages may exist when the current one is full. */
    hasMore: !searching && channels.length === CHANNEL_PAGE_SIZE,
    goTo: (pageIndex: number) => load(pageIndex, ''),
    search: () => load(0, keyword),
    refresh: () => load(page, keyword),
    replace,
  };
}
