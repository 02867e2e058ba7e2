import { Button, Flex } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Redemption } from '../../api/redemption';
import { PageHeading } from '../../components/page-heading/page-heading';
import { ListSearch, ServerTable } from '../../components/server-list/server-list';
import { ServerPager } from '../../components/server-list/server-pager';
import { useRenderQuota } from '../../hooks/use-quota';
import { useRowWrite } from '../../hooks/use-row-write';
import { redemptionColumns } from './redemption-columns';
import { useRedemptionList } from './use-redemption-list';

/** Redemption codes (/redemption, admin). */
export default function RedemptionListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const renderQuota = useRenderQuota();
  const list = useRedemptionList();
  const writeRow = useRowWrite<Redemption>('redemption');
  const columns = useMemo(
    () =>
      redemptionColumns({
        t,
        renderQuota,
        writeRow,
        onEdit: (id) => navigate(`/redemption/edit/${id}`),
        onCopyFailed: list.setKeyword,
      }),
    [t, renderQuota, writeRow, list.setKeyword, navigate],
  );
  return (
    <>
      <PageHeading title={t('redemption.list.title')} />
      <ListSearch placeholder={t('redemption.search.placeholder')} list={list} style={{ marginBottom: 12 }} />
      <ServerTable loading={list.loading} columns={columns} dataSource={list.rows} />
      <Flex gap={8} wrap align="center" style={{ marginTop: 12 }}>
        <Button type="primary" onClick={() => navigate('/redemption/add')}>
          {t('redemption.action.add')}
        </Button>
        <Button onClick={list.refresh}>{t('redemption.action.refresh')}</Button>
        <ServerPager page={list.page} hasMore={list.hasMore} searching={list.searching} onPage={list.goTo} />
      </Flex>
    </>
  );
}
