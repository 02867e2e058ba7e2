import { Button, Flex, Pagination, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LogCount } from '../../api/log';
import { ServerPager } from '../../components/server-list/server-pager';
import { useWindowWidth } from '../../hooks/use-media';
import { SERVER_PAGE_SIZE } from '../../hooks/use-paged-list';
import { NARROW_SCREEN_PX } from '../../lib/menu';
import { lastPageIndex } from './log-pages';

export interface LogPagerProps {
  page: number;
  hasMore: boolean;
  total: LogCount | null;
  onPage: (page: number) => void;
}

/**
 * The log pager: with an exact total, every page number and a jump to the last page (a phone gets the compact
 * pager and a "last page" button); with a capped or unknown count, one more page while the page is full.
 */
export function LogPager({ page, hasMore, total, onPage }: LogPagerProps) {
  const { t } = useTranslation();
  const narrow = useWindowWidth() <= NARROW_SCREEN_PX;
  const totalText = total && (
    <Typography.Text type="secondary" data-testid="log-total">
      {t(total.exact ? 'log.pager.total' : 'log.pager.atLeast', { count: total.total })}
    </Typography.Text>
  );
  if (!total?.exact)
    return (
      <Flex gap={12} align="center" wrap justify="flex-end">
        {totalText}
        <ServerPager page={page} hasMore={hasMore} onPage={onPage} />
      </Flex>
    );
  const last = lastPageIndex(total.total);
  return (
    <Flex gap={12} align="center" wrap justify="flex-end">
      {totalText}
      <Pagination
        simple={narrow}
        current={page + 1}
        pageSize={SERVER_PAGE_SIZE}
        total={total.total}
        showSizeChanger={false}
        showQuickJumper={!narrow}
        onChange={(current) => onPage(current - 1)}
      />
      {narrow && (
        <Button size="small" disabled={page >= last} onClick={() => onPage(last)}>
          {t('log.pager.last')}
        </Button>
      )}
    </Flex>
  );
}
