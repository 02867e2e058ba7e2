import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchUserPage, searchUsers, type UserOrder } from '../../api/user-admin';
import { SERVER_PAGE_SIZE } from '../../hooks/use-paged-list';
import { queryKeys } from '../../lib/query-keys';

/** Users loaded so far (server pages appended by load-more), or the search results (non-empty `search`). */
export function useUserList() {
  const [view, setView] = useState<{ order: UserOrder; search: string }>({ order: '', search: '' });
  const [keyword, setKeyword] = useState('');
  const query = useInfiniteQuery({
    queryKey: queryKeys.list('user', view),
    queryFn: async ({ pageParam }) =>
      (view.search ? await searchUsers(view.search) : await fetchUserPage(pageParam, view.order)) ?? [],
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (!view.search && last.length === SERVER_PAGE_SIZE ? pages.length : undefined),
    placeholderData: keepPreviousData,
  });

  const show = (next: typeof view) => {
    if (next.order === view.order && next.search === view.search) void query.refetch();
    else setView(next);
  };
  const search = () => show({ order: view.order, search: keyword.trim() });

  return {
    users: query.data?.pages.flat() ?? [],
    order: view.order,
    keyword,
    setKeyword,
    loading: query.isFetching,
    hasMore: query.hasNextPage,
    loadMore: () => void query.fetchNextPage(),
    sortBy: (order: UserOrder) => show({ order, search: '' }),
    search,
    refresh: () => (view.search ? search() : show(view)),
  };
}
