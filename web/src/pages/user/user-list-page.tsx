import { Button, Flex, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { User } from '../../api/types';
import type { UserOrder } from '../../api/user-admin';
import { PageHeading } from '../../components/page-heading/page-heading';
import { ListSearch, ServerTable } from '../../components/server-list/server-list';
import { SERVER_PAGE_SIZE } from '../../hooks/use-paged-list';
import { useRenderQuota } from '../../hooks/use-quota';
import { useRowWrite } from '../../hooks/use-row-write';
import { userColumns } from './user-columns';
import { useUserList } from './use-user-list';

/** User management (/user, admin). */
export default function UserListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const renderQuota = useRenderQuota();
  const list = useUserList();
  const writeRow = useRowWrite<User>('user');
  const columns = useMemo(
    () => userColumns({ t, renderQuota, writeRow, onEdit: (id) => navigate(`/user/edit/${id}`) }),
    [t, renderQuota, writeRow, navigate],
  );
  return (
    <>
      <PageHeading title={t('user.list.title')} />
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <ListSearch placeholder={t('user.search.placeholder')} list={list} style={{ flex: '1 1 240px' }} />
        <Select<UserOrder>
          style={{ width: 180 }}
          value={list.order}
          aria-label={t('user.order.label')}
          onChange={list.sortBy}
          options={[
            { value: '', label: t('user.order.default') },
            { value: 'quota', label: t('user.order.quota') },
            { value: 'used_quota', label: t('user.order.usedQuota') },
            { value: 'request_count', label: t('user.order.requestCount') },
          ]}
        />
      </Flex>
      <ServerTable
        loading={list.loading}
        columns={columns}
        dataSource={list.users}
        pagination={{ pageSize: SERVER_PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: true }}
      />
      <Flex gap={8} wrap style={{ marginTop: 12 }}>
        <Button type="primary" onClick={() => navigate('/user/add')}>
          {t('user.action.add')}
        </Button>
        <Button disabled={!list.hasMore} onClick={list.loadMore}>
          {t('user.action.loadMore')}
        </Button>
        <Button onClick={list.refresh}>{t('user.action.refresh')}</Button>
      </Flex>
    </>
  );
}
