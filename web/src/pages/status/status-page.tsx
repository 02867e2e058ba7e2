import { useQuery } from '@tanstack/react-query';
import { Button, Card, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { fetchServiceStatus, type ChannelServiceStatus, type ModelServiceStatus } from '../../api/status-page';
import { PageHeading } from '../../components/page-heading/page-heading';
import { queryKeys } from '../../lib/query-keys';
import { ChannelStatusTag } from '../channel/channel-status-tag';
import { OutcomeCell } from './outcome-cells';

/** Service status (/status): per model (and per channel for admins) availability, success rate and latency. */
export default function StatusPage() {
  const { t } = useTranslation();
  const {
    data: report,
    isFetching: loading,
    refetch,
  } = useQuery({
    queryKey: queryKeys.read('status', 'service'),
    queryFn: fetchServiceStatus,
  });

  const windows = <T extends ModelServiceStatus | ChannelServiceStatus>(): ColumnsType<T> => [
    { title: t('status.column.lastHour'), key: 'hour', render: (_, row) => <OutcomeCell window={row.last_hour} /> },
    { title: t('status.column.lastDay'), key: 'day', render: (_, row) => <OutcomeCell window={row.last_day} /> },
  ];
  const modelColumns: ColumnsType<ModelServiceStatus> = [
    { title: t('status.column.model'), dataIndex: 'model', sorter: (a, b) => a.model.localeCompare(b.model) },
    {
      title: t('status.column.available'),
      dataIndex: 'available',
      render: (available: boolean) =>
        available ? <Tag color="green">{t('status.available')}</Tag> : <Tag color="red">{t('status.unavailable')}</Tag>,
    },
    ...windows<ModelServiceStatus>(),
  ];
  const channelColumns: ColumnsType<ChannelServiceStatus> = [
    { title: t('status.column.channel'), dataIndex: 'channel_id', sorter: (a, b) => a.channel_id - b.channel_id },
    { title: t('status.column.name'), dataIndex: 'name' },
    {
      title: t('status.column.status'),
      dataIndex: 'status',
      render: (status: number) => <ChannelStatusTag status={status} />,
    },
    ...windows<ChannelServiceStatus>(),
  ];

  return (
    <>
      <PageHeading
        title={t('status.title')}
        extra={<Button onClick={() => void refetch()}>{t('status.refresh')}</Button>}
      />
      <Card title={t('status.models')} style={{ marginBottom: 16 }}>
        <Table
          rowKey="model"
          size="small"
          loading={loading}
          columns={modelColumns}
          dataSource={report?.models ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
          scroll={{ x: 'max-content' }}
        />
      </Card>
      {report?.channels && (
        <Card title={t('status.channels')}>
          <Table
            rowKey="channel_id"
            size="small"
            loading={loading}
            columns={channelColumns}
            dataSource={report.channels}
            pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
            scroll={{ x: 'max-content' }}
          />
        </Card>
      )}
    </>
  );
}
