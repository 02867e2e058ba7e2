import { Button, Flex, Input, Pagination, Table } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeading } from '../../components/page-heading/page-heading';
import { useRenderQuota } from '../../hooks/use-quota';
import { redemptionColumns } from './redemption-columns';
import { REDEMPTION_PAGE_SIZE, useRedemptionList } from './use-redemption-list';

/** Redemption codes (/redemption, admin). */
export default function RedemptionListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const renderQuota = useRenderQuota();
  const list = useRedemptionList();
  const columns = useMemo(
    () =>
      redemptionColumns({
        t,
        renderQuota,
        replace: list.replace,
        onEdit: (id) => navigate(`/redemption/edit/${id}`),
        onCopyFailed: list.setKeyword,
      }),
    [t, renderQuota, list.replace, list.setKeyword, navigate],
  );
  const total = (list.page + 1) * REDEMPTION_PAGE_SIZE + (list.hasMore ? REDEMPTION_PAGE_SIZE : 0);
  return (
    <>
      <PageHeading title={t('redemption.list.title')} />
      <Input.Search
        allowClear
        enterButton
        style={{ marginBottom: 12 }}
        placeholder={t('redemption.search.placeholder')}
        value={list.keyword}
        onChange={(event) => list.setKeyword(event.target.value)}
        onSearch={() => void list.search()}
      />
      <Table
        rowKey="id"
        size="small"
        loading={list.loading}
        columns={columns}
        dataSource={list.rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      <Flex gap={8} wrap align="center" style={{ marginTop: 12 }}>
        <Button type="primary" onClick={() => navigate('/redemption/add')}>
          {t('redemption.action.add')}
        </Button>
        <Button onClick={() => void list.refresh()}>{t('redemption.action.refresh')}</Button>
        {!list.searching && (
          <Pagination
            style={{ marginInlineStart: 'auto' }}
            simple
            current={list.page + 1}
            pageSize={REDEMPTION_PAGE_SIZE}
            total={total}
            onChange={(current) => void list.goTo(current - 1)}
          />
        )}
      </Flex>
    </>
  );
}
