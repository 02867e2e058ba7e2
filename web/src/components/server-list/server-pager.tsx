import { Pagination } from 'antd';
import { pagerTotal, SERVER_PAGE_SIZE } from '../../hooks/use-paged-list';

export interface ServerPagerProps {
  /** The page shown, from 0. */
  page: number;
  hasMore: boolean;
  /** Search results have no pages: the pager hides. */
  searching?: boolean;
  onPage: (page: number) => void;
}

/** Paging of a server list without a total: one more page is offered while the current page is full. */
export function ServerPager({ page, hasMore, searching, onPage }: ServerPagerProps) {
  if (searching) return null;
  return (
    <Pagination
      style={{ marginInlineStart: 'auto' }}
      simple
      current={page + 1}
      pageSize={SERVER_PAGE_SIZE}
      total={pagerTotal(page, hasMore)}
      showSizeChanger={false}
      onChange={(current) => onPage(current - 1)}
    />
  );
}
