import { Button, Flex, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TokenDetails, TokenOrder } from '../../api/token';
import { PageHeading } from '../../components/page-heading/page-heading';
import { ListSearch, ServerTable } from '../../components/server-list/server-list';
import { ServerPager } from '../../components/server-list/server-pager';
import { useRenderQuota } from '../../hooks/use-quota';
import { useRowWrite } from '../../hooks/use-row-write';
import { useServerAddress } from '../../hooks/use-server-address';
import { copyText } from '../../lib/clipboard';
import { notify } from '../../lib/notify';
import { useChatLink } from '../../stores/status.store';
import { tokenColumns } from './token-columns';
import { TokenUsageNotice } from './token-usage-notice';
import { useTokenList } from './use-token-list';

/** The caller's tokens (/token). */
export default function TokenListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useTokenList();
  const writeRow = useRowWrite<TokenDetails>('token');
  const renderQuota = useRenderQuota();
  const chatLink = useChatLink();
  const serverAddress = useServerAddress();

  const columns = useMemo(
    () =>
      tokenColumns({
        t,
        renderQuota,
        serverAddress,
        chatLink,
        writeRow,
        onCopyFailed: list.setKeyword,
      }),
    [t, renderQuota, serverAddress, chatLink, writeRow, list.setKeyword],
  );

  const copyBaseUrl = async () => {
    if (await copyText(serverAddress)) notify.success(t('token.toast.copied'));
    else {
      notify.warning(t('common.copyFailed'));
      list.setKeyword(serverAddress);
    }
  };

  return (
    <>
      <PageHeading title={t('token.list.title')} />
      <TokenUsageNotice serverAddress={serverAddress} />
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <ListSearch placeholder={t('token.search.placeholder')} list={list} style={{ flex: '1 1 240px' }} />
        <Select<TokenOrder>
          style={{ width: 180 }}
          value={list.order}
          aria-label={t('token.order.label')}
          onChange={list.sortBy}
          options={[
            { value: '', label: t('token.order.default') },
            { value: 'remain_quota', label: t('token.order.remainQuota') },
            { value: 'used_quota', label: t('token.order.usedQuota') },
          ]}
        />
      </Flex>
      {/* The actions come before the rows, in Tab order too (issue 33, point 7); the pager follows them. */}
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => navigate('/token/add')}>
          {t('token.action.add')}
        </Button>
        <Button onClick={() => void copyBaseUrl()}>{t('token.action.copyBaseUrl')}</Button>
        <Button onClick={list.refresh}>{t('token.action.refresh')}</Button>
      </Flex>
      <ServerTable loading={list.loading} columns={columns} dataSource={list.rows} />
      <Flex gap={8} wrap align="center" style={{ marginTop: 12 }}>
        <ServerPager page={list.page} hasMore={list.hasMore} searching={list.searching} onPage={list.goTo} />
      </Flex>
    </>
  );
}
