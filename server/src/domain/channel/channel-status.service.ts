import type { AppContext } from '../../context.js';
import type { Db } from '../../db/tables.js';
import { escapeHtml } from '../mail/mailer.js';
import { Role } from '../user/user.constants.js';
import { channelRelay } from './channel-relay.js';
import { ChannelStatus } from './channel.constants.js';

/**
 * Sets a channel's status and its abilities' `enabled` flag together, then tells every node's router and
 * waits for this node's: once this resolves, no call starting on this node picks a channel it disabled.
 */
async function setChannelStatus(
  context: AppContext,
  channelId: number,
  status: number,
  onlyFrom: number[],
): Promise<boolean> {
  const relay = channelRelay(context);
  const changed = await context.database.db
    .transaction()
    .execute(async (transaction: Db) => {
      const result = await transaction
        .updateTable('channels')
        .set({ status })
        .where('id', '=', channelId)
        .where('status', 'in', onlyFrom)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await transaction
        .updateTable('abilities')
        .set({ enabled: status === ChannelStatus.Enabled ? 1 : 0 }) // SQLite cannot bind booleans
        .where('channel_id', '=', channelId)
        .execute();
      return true;
    })
    .catch((error: unknown) => {
      // The relay withdrew the channel before this write: a failed write must not keep it out of the routes.
      void relay
        ?.refresh([channelId])
        .catch((failure: unknown) =>
          context.logger.error({ err: failure, channel: channelId }, 'channel snapshot reload failed'),
        );
      throw error;
    });
  if (!changed) return false;
  const published = context.bus.publish('channels', channelId);
  await Promise.all([published, relay?.refresh([channelId])]);
  return true;
}

/**
 * Disables a channel that failed in a way one-api treats as fatal (or was too slow in a test), and tells
 * root. Only an enabled channel is disabled, so a burst of failures sends one notice, not one per request.
 */
export async function autoDisableChannel(
  context: AppContext,
  channelId: number,
  channelName: string,
  reason: string,
): Promise<void> {
  if (!(await setChannelStatus(context, channelId, ChannelStatus.AutoDisabled, [ChannelStatus.Enabled]))) return;
  context.logger.warn({ channelId, reason }, 'channel disabled automatically');
  await notifyRoot(context, '渠道状态变更提醒', `渠道「${channelName}」（#${channelId}）已被禁用，原因：${reason}`);
}

/**
 * Re-enables a channel that passed a test. Only channels the program disabled come back: a channel an admin
 * disabled by hand stays off (one-api re-enabled those too).
 */
export async function autoEnableChannel(context: AppContext, channelId: number, channelName: string): Promise<void> {
  if (!(await setChannelStatus(context, channelId, ChannelStatus.Enabled, [ChannelStatus.AutoDisabled]))) return;
  context.logger.info({ channelId }, 'channel enabled automatically');
  await notifyRoot(context, '渠道状态变更提醒', `渠道「${channelName}」（#${channelId}）已被重新启用`);
}

/** Message pusher when configured, else mail to root's address; failures are logged, never thrown. */
export async function notifyRoot(context: AppContext, title: string, text: string): Promise<void> {
  try {
    const pusher = context.options.string('MessagePusherAddress');
    if (pusher) {
      const response = await fetch(pusher, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          title,
          description: text,
          content: text,
          url: '',
          channel: '',
          token: context.options.string('MessagePusherToken'),
        }),
        signal: AbortSignal.timeout(10_000),
      });
      const result = (await response.json().catch(() => ({}))) as { success?: boolean };
      if (response.ok && result.success) return;
    }
    const root = await context.database.db
      .selectFrom('users')
      .select('email')
      .where('role', '=', Role.Root)
      .orderBy('id')
      .executeTakeFirst();
    if (!root?.email) return;
    await context.mailer.send(root.email, title, title, `<p>${escapeHtml(text)}</p>`);
  } catch (error) {
    context.logger.error({ err: error, title }, 'notifying root failed');
  }
}
