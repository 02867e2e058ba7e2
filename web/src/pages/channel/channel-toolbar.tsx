import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Popconfirm, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteDisabledChannels, startBulkTest } from '../../api/channel';
import { ServerPager } from '../../components/server-list/server-pager';
import { notify } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';

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

  const queryClient = useQueryClient();
  const bulkTest = useMutation({
    mutationFn: startBulkTest,
    onSuccess: () => {
      notify.info(t('channel.toast.testStarted'));
      props.onBulkStarted();
    },
  });
  const removeDisabled = useMutation({
    mutationFn: deleteDisabledChannels,
    onSuccess: (count) => notify.success(t('channel.toast.disabledDeleted', { count })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.all('channel') }),
  });

  return (
    <Flex wrap gap={8} align="center" style={{ marginTop: 12 }}>
      <Button type="primary" onClick={() => navigate('/channel/add')}>
        {t('channel.action.add')}
      </Button>
      <Button onClick={() => bulkTest.mutate('all')}>{t('channel.action.testAll')}</Button>
      <Button onClick={() => bulkTest.mutate('disabled')}>{t('channel.action.testDisabled')}</Button>
      <Popconfirm title={t('channel.confirm.deleteDisabled')} onConfirm={() => removeDisabled.mutate()}>
        <Button danger>{t('channel.action.deleteDisabled')}</Button>
      </Popconfirm>
      <Button onClick={props.onRefresh}>{t('channel.action.refresh')}</Button>
      <Flex gap={6} align="center">
        <Switch checked={props.detail} onChange={props.onDetail} aria-label={t('channel.action.detail')} />
        {t('channel.action.detail')}
      </Flex>
      <ServerPager page={props.page} hasMore={props.hasMore} searching={props.searching} onPage={props.onPage} />
    </Flex>
  );
}
