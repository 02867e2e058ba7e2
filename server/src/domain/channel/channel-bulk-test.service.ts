import type { AppContext } from '../../context.js';
import type { ChannelRow } from '../../db/tables.js';
import { shouldDisableChannel } from './should-disable.js';
import { autoDisableChannel, autoEnableChannel, notifyRoot } from './channel-status.service.js';
import type { ProbeResult } from './channel-relay.js';
import { testChannel } from './channel-test.service.js';
import { ChannelStatus } from './channel.constants.js';
import { findChannelById, listChannelsForScope } from './channel.repository.js';
import { pause, readRunProgress, startExclusiveRun, type RunProgress, type StartedRun } from './exclusive-run.js';

export type BulkTestScope = 'all' | 'disabled';

const bulkTestRunName = 'channel-test';

/** Counts kept during a run, for the closing notice. */
interface BulkTestTally {
  tested: number;
  failed: number;
  disabled: number;
  enabled: number;
  /** Enabled channels over the threshold while automatic disabling is off: reported, not disabled. */
  slow: string[];
}

/** Decides what one result means for the channel: disable (with a reason), enable, or nothing. */
async function applyHealthRules(context: AppContext, channel: ChannelRow, result: ProbeResult, tally: BulkTestTally) {
  const autoDisable = context.options.bool('AutomaticDisableChannelEnabled');
  const thresholdSeconds = context.options.number('ChannelDisableThreshold');
  if (channel.status === ChannelStatus.Enabled) {
    const tooSlow = thresholdSeconds > 0 && result.elapsedMs > thresholdSeconds * 1000;
    const slowReason = `响应时间 ${(result.elapsedMs / 1000).toFixed(2)}s 超过阈值 ${thresholdSeconds.toFixed(2)}s`;
    if (tooSlow && !autoDisable) tally.slow.push(`${channel.name}（#${channel.id}）：${slowReason}`);
    const fatal = !result.success && result.error !== undefined && shouldDisableChannel(result.error);
    if (autoDisable && (tooSlow || fatal)) {
      await autoDisableChannel(context, channel.id, channel.name, tooSlow ? slowReason : result.message);
      tally.disabled += 1;
    }
    return;
  }
  // Only channels the program disabled come back by themselves; a manual disable is the admin's decision.
  if (
    channel.status === ChannelStatus.AutoDisabled &&
    result.success &&
    context.options.bool('AutomaticEnableChannelEnabled')
  ) {
    await autoEnableChannel(context, channel.id, channel.name);
    tally.enabled += 1;
  }
}

function summary(scope: BulkTestScope, tally: BulkTestTally): string {
  const lines = [
    `范围：${scope === 'all' ? '全部渠道' : '已禁用渠道'}；共测试 ${tally.tested} 个，失败 ${tally.failed} 个；` +
      `自动禁用 ${tally.disabled} 个，自动启用 ${tally.enabled} 个。`,
  ];
  if (tally.slow.length > 0) lines.push(`以下渠道响应过慢（未开启自动禁用）：${tally.slow.join('；')}`);
  return lines.join('\n');
}

/**
 * Starts a test of every channel in scope in the background, one channel after another, POLLING_INTERVAL
 * seconds apart. Returns the started run, or null when a bulk test is already running (in this process,
 * or on any node when Redis is on). With `notify`, root receives one closing notice (one-api sent it to a
 * notification method that did not exist); periodic runs notify only about slow channels.
 */
export function startBulkTest(
  context: AppContext,
  scope: BulkTestScope,
  notify: boolean,
  stopSignal?: AbortSignal,
): Promise<StartedRun | null> {
  return startExclusiveRun(
    context,
    bulkTestRunName,
    scope,
    async (reporter, signal) => {
      const channels = await listChannelsForScope(context.database.db, scope);
      await reporter.setTotal(channels.length);
      const tally: BulkTestTally = { tested: 0, failed: 0, disabled: 0, enabled: 0, slow: [] };
      for (const [index, listed] of channels.entries()) {
        if (signal.aborted) return;
        if (index > 0) await pause(context.config.POLLING_INTERVAL * 1000, signal);
        if (signal.aborted) return;
        // Re-read: an admin may have edited, disabled or deleted it since the run started.
        const channel = await findChannelById(context.database.db, listed.id);
        if (!channel) {
          await reporter.advance();
          continue;
        }
        const result = await testChannel(context, channel, '', true);
        tally.tested += 1;
        if (!result.success) tally.failed += 1;
        await applyHealthRules(context, channel, result, tally);
        await reporter.advance();
      }
      if (notify || tally.slow.length > 0) await notifyRoot(context, '渠道测试完成', summary(scope, tally));
    },
    stopSignal,
  );
}

export const bulkTestProgress = (context: AppContext): Promise<RunProgress> =>
  readRunProgress(context, bulkTestRunName);
