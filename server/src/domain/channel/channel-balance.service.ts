import type { AppContext } from '../../context.js';
import type { ChannelRow } from '../../db/tables.js';
import { AppError } from '../../lib/errors.js';
import { nowSeconds } from '../../lib/time.js';
import { balanceReaders, balanceTypes } from './balance/balance-registry.js';
import { listChannelsOfTypes, recordChannelBalance } from './channel.repository.js';
import { pause, readRunProgress, startExclusiveRun, type RunProgress } from './exclusive-run.js';

export const balanceNotSupported = () =>
  new AppError('balance_not_supported', {
    zh: '尚未实现：该类型渠道不支持查询余额',
    en: 'balance queries are not supported for this channel type',
  });

const balanceRunName = 'channel-balance';

/** Asks the channel's upstream for its balance and stores it; throws a clear error when that fails. */
export async function refreshChannelBalance(context: AppContext, channel: ChannelRow): Promise<number> {
  const reader = balanceReaders.get(Number(channel.type));
  if (!reader) throw balanceNotSupported();
  const balance = await reader.read(channel);
  await recordChannelBalance(context.database.db, channel.id, balance, nowSeconds());
  return balance;
}

/**
 * Refreshes the balance of every channel whose type can report one, in the background, one at a time
 * (POLLING_INTERVAL apart). Returns false when a refresh is already running (here or on another node).
 */
export async function startBalanceRefresh(context: AppContext): Promise<boolean> {
  const run = await startExclusiveRun(context, balanceRunName, 'all', async (reporter, signal) => {
    const channels = await listChannelsOfTypes(context.database.db, balanceTypes);
    await reporter.setTotal(channels.length);
    for (const [index, channel] of channels.entries()) {
      if (signal.aborted) return;
      if (index > 0) await pause(context.config.POLLING_INTERVAL * 1000, signal);
      try {
        await refreshChannelBalance(context, channel);
      } catch (error) {
        context.logger.warn({ channelId: channel.id, err: error }, 'balance refresh failed');
      }
      await reporter.advance();
    }
  });
  return run !== null;
}

export const balanceRefreshProgress = (context: AppContext): Promise<RunProgress> =>
  readRunProgress(context, balanceRunName);
