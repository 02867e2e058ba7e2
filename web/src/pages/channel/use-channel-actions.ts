import { useTranslation } from 'react-i18next';
import { deleteChannel, patchChannel, testChannel, updateChannelBalance, type Channel } from '../../api/channel';
import { notify } from '../../lib/notify';
import { nowSeconds } from '../../lib/time';

type Replace = (id: number, change: Partial<Channel> | null) => void;

/** The row actions of the channel list, each updating the row in place. */
export function useChannelActions(replace: Replace) {
  const { t } = useTranslation();

  const run = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch {
      // shown by the common handler
    }
  };

  return {
    test: (channel: Channel, model: string) =>
      run(async () => {
        const answer = await testChannel(channel.id, model);
        if (!answer.success) {
          notify.error(answer.message || t('common.error.requestFailed'));
          replace(channel.id, { response_time: 0, test_time: nowSeconds() });
          return;
        }
        const seconds = answer.time ?? 0;
        replace(channel.id, { response_time: Math.round(seconds * 1000), test_time: nowSeconds() });
        notify.info(
          t('channel.toast.tested', {
            name: channel.name,
            model: answer.modelName || answer.model || model,
            seconds: seconds.toFixed(2),
          }),
        );
      }),
    refreshBalance: (channel: Channel) =>
      run(async () => {
        const answer = await updateChannelBalance(channel.id);
        if (!answer.success) {
          notify.error(answer.message || t('common.error.requestFailed'));
          return;
        }
        replace(channel.id, { balance: answer.balance ?? 0, balance_updated_time: nowSeconds() });
        notify.success(t('channel.toast.balanceUpdated', { name: channel.name }));
      }),
    setStatus: (channel: Channel, status: number) =>
      run(async () => {
        await patchChannel(channel.id, { status });
        replace(channel.id, { status });
        notify.success(t('channel.toast.success'));
      }),
    setPriority: (channel: Channel, priority: number) =>
      run(async () => {
        await patchChannel(channel.id, { priority });
        replace(channel.id, { priority });
        notify.success(t('channel.toast.success'));
      }),
    setWeight: (channel: Channel, weight: number) =>
      run(async () => {
        const value = Math.max(0, weight);
        await patchChannel(channel.id, { weight: value });
        replace(channel.id, { weight: value });
        notify.success(t('channel.toast.success'));
      }),
    remove: (channel: Channel) =>
      run(async () => {
        await deleteChannel(channel.id);
        replace(channel.id, null);
        notify.success(t('channel.toast.success'));
      }),
  };
}

export type ChannelActions = ReturnType<typeof useChannelActions>;
