import { useCallback, useEffect, useState } from 'react';
import type { User } from '../../api/types';
import { fetchUserPage, searchUsers, type UserOrder } from '../../api/user-admin';
import { replaceRow, SERVER_PAGE_SIZE } from '../../hooks/use-paged-list';

export const USER_PAGE_SIZE = SERVER_PAGE_SIZE;

/** Users loaded so far (server pages appended by load-more), or the search results. */
export function useUserList() {
  const [users, setUsers] = useState<User[]>([]);
  const [nextPage, setNextPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [order, setOrder] = useState<UserOrder>('');
  const [keyword, setKeyword] = useState('');
  const [searching, setSearching] = useState(false);
  const [loading, setLoading] = useState(false);

  const loadPage = useCallback(async (page: number, sortOrder: UserOrder, append: boolean) => {
    setLoading(true);
    try {
      const rows = (await fetchUserPage(page, sortOrder)) ?? [];
      setUsers((current) => (append ? [...current, ...rows] : rows));
      setNextPage(page + 1);
      setHasMore(rows.length === USER_PAGE_SIZE);
      setSearching(false);
    } catch {
      // shown by the common handler
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void loadPage(0, '', false);
  }, [loadPage]);

  const search = async () => {
    const trimmed = keyword.trim();
    if (!trimmed) return loadPage(0, order, false);
    setLoading(true);
    try {
      setUsers((await searchUsers(trimmed)) ?? []);
      setSearching(true);
      setHasMore(false);
    } catch {
      // shown by the common handler
    } finally {
      setLoading(false);
    }
  };

  const replace = useCallback((id: number, change: Partial<User> | null) => {
    setUsers((rows) => replaceRow(rows, id, change));
  }, []);

  return {
    users,
    order,
    keyword,
    setKeyword,
    searching,
    loading,
    hasMore,
    loadMore: () => loadPage(nextPage, order, true),
    sortBy: (next: UserOrder) => {
      setOrder(next);
      return loadPage(0, next, false);
    },
    search,
    refresh: () => (searching ? search() : loadPage(0, order, false)),
    replace,
  };
}
