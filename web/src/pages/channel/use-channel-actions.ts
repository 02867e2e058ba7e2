import { useTranslation } from 'react-i18next';
import { deleteChannel, patchChannel, testChannel, updateChannelBalance, type Channel } from '../../api/channel';
import { useRowWrite } from '../../hooks/use-row-write';
import { notify } from '../../lib/notify';
import { nowSeconds } from '../../lib/time';

/** The row actions of the channel list, each showing its change in the row at once. */
export function useChannelActions() {
  const { t } = useTranslation();
  const writeRow = useRowWrite<Channel>('channel');

  const patch = (channel: Channel, fields: Pick<Partial<Channel>, 'status' | 'priority' | 'weight'>) =>
    writeRow(channel.id, async () => {
      await patchChannel(channel.id, fields);
      notify.success(t('channel.toast.success'));
      return fields;
    });

  return {
    test: (channel: Channel, model: string) =>
      writeRow(channel.id, async () => {
        const answer = await testChannel(channel.id, model);
        if (!answer.success) {
          notify.error(answer.message || t('common.error.requestFailed'));
          return { response_time: 0, test_time: nowSeconds() };
        }
        const seconds = answer.time ?? 0;
        notify.info(
          t('channel.toast.tested', {
            name: channel.name,
            model: answer.modelName || answer.model || model,
            seconds: seconds.toFixed(2),
          }),
        );
        return { response_time: Math.round(seconds * 1000), test_time: nowSeconds() };
      }),
    refreshBalance: (channel: Channel) =>
      writeRow(channel.id, async () => {
        const answer = await updateChannelBalance(channel.id);
        if (!answer.success) {
          notify.error(answer.message || t('common.error.requestFailed'));
          return {};
        }
        notify.success(t('channel.toast.balanceUpdated', { name: channel.name }));
        return { balance: answer.balance ?? 0, balance_updated_time: nowSeconds() };
      }),
    setStatus: (channel: Channel, status: number) => patch(channel, { status }),
    setPriority: (channel: Channel, priority: number) => patch(channel, { priority }),
    setWeight: (channel: Channel, weight: number) => patch(channel, { weight: Math.max(0, weight) }),
    remove: (channel: Channel) =>
      writeRow(channel.id, async () => {
        await deleteChannel(channel.id);
        notify.success(t('channel.toast.success'));
        return null;
      }),
  };
}

export type ChannelActions = ReturnType<typeof useChannelActions>;
