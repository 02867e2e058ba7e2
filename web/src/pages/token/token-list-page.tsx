import { Button, Flex, Input, Pagination, Select, Table } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TokenOrder } from '../../api/token';
import { PageHeading } from '../../components/page-heading/page-heading';
import { useRenderQuota } from '../../hooks/use-quota';
import { copyText } from '../../lib/clipboard';
import { notify } from '../../lib/notify';
import { useChatLink, useStatus } from '../../stores/status.store';
import { tokenColumns } from './token-columns';
import { TokenUsageNotice } from './token-usage-notice';
import { TOKEN_PAGE_SIZE, useTokenList } from './use-token-list';

/** The caller's tokens (/token). */
export default function TokenListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useTokenList();
  const renderQuota = useRenderQuota();
  const status = useStatus();
  const chatLink = useChatLink();
  const serverAddress = status.server_address || window.location.origin;

  const columns = useMemo(
    () =>
      tokenColumns({
        t,
        renderQuota,
        serverAddress,
        chatLink,
        replace: list.replace,
        onCopyFailed: (text) => list.setKeyword(text),
      }),
    [t, renderQuota, serverAddress, chatLink, list.replace, list.setKeyword],
  );

  const copyBaseUrl = async () => {
    if (await copyText(serverAddress)) notify.success(t('token.toast.copied'));
    else {
      notify.warning(t('common.copyFailed'));
      list.setKeyword(serverAddress);
    }
  };

  const total = (list.page + 1) * TOKEN_PAGE_SIZE + (list.hasMore ? TOKEN_PAGE_SIZE : 0);
  return (
    <>
      <PageHeading title={t('token.list.title')} />
      <TokenUsageNotice serverAddress={serverAddress} />
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          style={{ flex: '1 1 240px' }}
          placeholder={t('token.search.placeholder')}
          value={list.keyword}
          onChange={(event) => list.setKeyword(event.target.value)}
          onSearch={() => void list.search()}
          enterButton
        />
        <Select<TokenOrder>
          style={{ width: 180 }}
          value={list.order}
          aria-label={t('token.order.label')}
          onChange={(order) => void list.sortBy(order)}
          options={[
            { value: '', label: t('token.order.default') },
            { value: 'remain_quota', label: t('token.order.remainQuota') },
            { value: 'used_quota', label: t('token.order.usedQuota') },
          ]}
        />
      </Flex>
      <Table
        rowKey="id"
        size="small"
        loading={list.loading}
        columns={columns}
        dataSource={list.tokens}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      <Flex gap={8} wrap align="center" style={{ marginTop: 12 }}>
        <Button type="primary" onClick={() => navigate('/token/add')}>
          {t('token.action.add')}
        </Button>
        <Button onClick={() => void copyBaseUrl()}>{t('token.action.copyBaseUrl')}</Button>
        <Button onClick={() => void list.refresh()}>{t('token.action.refresh')}</Button>
        {!list.searching && (
          <Pagination
            style={{ marginInlineStart: 'auto' }}
            simple
            current={list.page + 1}
            pageSize={TOKEN_PAGE_SIZE}
            total={total}
            onChange={(current) => void list.goTo(current - 1)}
          />
        )}
      </Flex>
    </>
  );
}
