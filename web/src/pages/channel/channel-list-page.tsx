import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeading } from '../../components/page-heading/page-heading';
import { ListSearch, ServerTable } from '../../components/server-list/server-list';
import { QUOTA_PER_DOLLAR, readQuotaDisplayOptions } from '../../lib/quota';
import { StorageKey } from '../../lib/storage-keys';
import { useStatus } from '../../stores/status.store';
import { BulkTestProgressBar } from './bulk-test-progress';
import { channelColumns } from './channel-columns';
import { ChannelNotice } from './channel-notice';
import { ChannelToolbar } from './channel-toolbar';
import { useChannelActions } from './use-channel-actions';
import { useChannelList } from './use-channel-list';

/** Channel management (/channel, admin). */
export default function ChannelListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useChannelList();
  const actions = useChannelActions();
  const status = useStatus();
  const [detail, setDetail] = useState(() => localStorage.getItem(StorageKey.showDetail) === 'true');
  const [testModels, setTestModels] = useState<Record<number, string>>({});
  const [bulkRun, setBulkRun] = useState(0);

  const toggleDetail = (next: boolean) => {
    localStorage.setItem(StorageKey.showDetail, String(next));
    setDetail(next);
  };

  const columns = useMemo(
    () =>
      channelColumns({
        t,
        detail,
        quota: {
          displayInCurrency: status.display_in_currency ?? readQuotaDisplayOptions().displayInCurrency,
          quotaPerUnit: status.quota_per_unit || QUOTA_PER_DOLLAR,
        },
        actions,
        testModels,
        setTestModel: (id, model) => setTestModels((chosen) => ({ ...chosen, [id]: model })),
        onEdit: (id) => navigate(`/channel/edit/${id}`),
      }),
    [t, detail, actions, testModels, navigate, status],
  );

  return (
    <>
      <PageHeading title={t('channel.list.title')} />
      <ChannelNotice />
      <BulkTestProgressBar run={bulkRun} />
      <ListSearch placeholder={t('channel.search.placeholder')} list={list} style={{ marginBottom: 12 }} />
      <ServerTable loading={list.loading} columns={columns} dataSource={list.rows} />
      <ChannelToolbar
        page={list.page}
        hasMore={list.hasMore}
        searching={list.searching}
        detail={detail}
        onDetail={toggleDetail}
        onPage={list.goTo}
        onRefresh={list.refresh}
        onBulkStarted={() => setBulkRun((run) => run + 1)}
      />
    </>
  );
}
