import { Button, Flex, Pagination, Popconfirm, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteDisabledChannels, startBulkTest } from '../../api/channel';
import { notify } from '../../lib/notify';
import { CHANNEL_PAGE_SIZE } from './use-channel-list';

export interface ChannelToolbarProps {
  page: number;
  hasMore: boolean;
  searching: boolean;
  detail: boolean;
  onDetail: (detail: boolean) => void;
  onPage: (page: number) => void;
  onRefresh: () => void;
  onBulkStarted: () => void;
}

/** The footer of the channel table: add, bulk tests, delete disabled, paging, refresh, details. */
export function ChannelToolbar(props: ChannelToolbarProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();

  const bulkTest = async (scope: 'all' | 'disabled') => {
    try {
      await startBulkTest(scope);
      notify.info(t('channel.toast.testStarted'));
      props.onBulkStarted();
    } catch {
      // shown by the common handler
    }
  };

  const removeDisabled = async () => {
    try {
      const count = await deleteDisabledChannels();
      notify.success(t('channel.toast.disabledDeleted', { count }));
      props.onRefresh();
    } catch {
      // shown by the common handler
    }
  };

  // The list has no total: one more page is offered while the current page is full.
  const total = (props.page + 1) * CHANNEL_PAGE_SIZE + (props.hasMore ? CHANNEL_PAGE_SIZE : 0);
  return (
    <Flex wrap gap={8} align="center" style={{ marginTop: 12 }}>
      <Button type="primary" onClick={() => navigate('/channel/add')}>
        {t('channel.action.add')}
      </Button>
      <Button onClick={() => void bulkTest('all')}>{t('channel.action.testAll')}</Button>
      <Button onClick={() => void bulkTest('disabled')}>{t('channel.action.testDisabled')}</Button>
      <Popconfirm title={t('channel.confirm.deleteDisabled')} onConfirm={removeDisabled}>
        <Button danger>{t('channel.action.deleteDisabled')}</Button>
      </Popconfirm>
      <Button onClick={props.onRefresh}>{t('channel.action.refresh')}</Button>
      <Flex gap={6} align="center">
        <Switch checked={props.detail} onChange={props.onDetail} aria-label={t('channel.action.detail')} />
        {t('channel.action.detail')}
      </Flex>
      {!props.searching && (
        <Pagination
          style={{ marginInlineStart: 'auto' }}
          current={props.page + 1}
          pageSize={CHANNEL_PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          simple
          onChange={(current) => props.onPage(current - 1)}
        />
      )}
    </Flex>
  );
}
