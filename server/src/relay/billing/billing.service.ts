import type { AppContext } from '../../context.js';
import type { TokenRow, UserRow } from '../../db/tables.js';
import { logRow, quotaText, type LogEntry } from '../../domain/log/log.writer.js';
import { escapeHtml } from '../../domain/mail/mailer.js';
import { LogType } from '../../domain/log/log.constants.js';
import { relayErrors } from '../relay-errors.js';
import { relayRuntime } from '../runtime.js';
import { reserveQuota, type QuotaChange } from './quota.repository.js';

/** Quota held for one relay attempt (0 when the trusted shortcut reserved nothing). */
export interface Reservation {
  user: UserRow;
  token: TokenRow;
  limited: boolean;
  amount: number;
}

/** A balance so far above the estimate that reserving would only cost a write (one-api's 100×). */
const trustFactor = 100;

/** Keeps this node's cached rows close to the database after a balance change (other nodes re-read on TTL). */
function adjustCachedBalances(
  context: AppContext,
  reservation: Reservation,
  balanceDelta: number,
  tokenUsedDelta: number,
): void {
  const user = context.caches.users.get(String(reservation.user.id));
  if (user) user.quota -= balanceDelta;
  const token = context.caches.tokens.get(reservation.token.key);
  if (token) {
    if (reservation.limited) token.remain_quota -= balanceDelta;
    token.used_quota += tokenUsedDelta;
  }
}

/**
 * Pre-consumes an estimate. A user (and, for a limited token, the token) holding more than 100× the
 * estimate is trusted and nothing is written; otherwise both balances are decreased atomically, or the
 * request is refused with the balance that is short.
 */
export async function reserve(
  context: AppContext,
  user: UserRow,
  token: TokenRow,
  amount: number,
): Promise<Reservation> {
  const limited = !token.unlimited_quota;
  const reservation: Reservation = { user, token, limited, amount: 0 };
  if (amount <= 0) return reservation;
  const trusted = user.quota > trustFactor * amount && (!limited || token.remain_quota > trustFactor * amount);
  if (trusted) return reservation;
  const quotaBefore = user.quota;
  const refusal = await reserveQuota(context.database.db, user.id, token.id, limited, amount);
  if (refusal === 'token') throw relayErrors.insufficientTokenQuota();
  if (refusal === 'user') throw relayErrors.insufficientUserQuota();
  reservation.amount = amount;
  remindIfLow(context, user, quotaBefore, amount);
  adjustCachedBalances(context, reservation, amount, limited ? amount : 0);
  return reservation;
}

/**
 * one-api's low-balance mail (server-behaviour §5.7): sent when a real reservation takes the balance below
 * QuotaRemindThreshold, or to zero. Sent in the background; a failure is only logged.
 */
function remindIfLow(context: AppContext, user: UserRow, quotaBefore: number, amount: number): void {
  const threshold = context.options.number('QuotaRemindThreshold');
  const after = quotaBefore - amount;
  const crossing = quotaBefore >= threshold && after < threshold;
  if (!user.email || !(crossing || after <= 0)) return;
  const title = after <= 0 ? '您的额度已用尽' : '您的额度即将用尽';
  const link = `${context.options.string('ServerAddress').replace(/\/+$/, '')}/topup`;
  const body =
    `<p>${title}，当前剩余额度为 ${escapeHtml(quotaText(context, quotaBefore))}，为了不影响您的使用，请及时充值。</p>` +
    `<p>充值链接：<a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`;
  void context.mailer
    .send(user.email, '额度提醒', title, body)
    .catch((error: unknown) =>
      context.logger.warn({ err: error, userId: user.id }, 'sending the low-balance reminder failed'),
    );
}

/**
 * Gives a whole reservation back (any failure path), through the settlement writer, which keeps what fails.
 * Resolves once it is written: a retry on another channel reserves again and must see the balance back.
 */
export async function refund(context: AppContext, reservation: Reservation): Promise<void> {
  if (reservation.amount <= 0) return;
  const amount = reservation.amount;
  reservation.amount = 0;
  const change: QuotaChange = {
    userId: reservation.user.id,
    tokenId: reservation.token.id,
    limited: reservation.limited,
    channelId: 0,
    balanceDelta: -amount,
    usedQuota: 0,
    tokenUsedDelta: reservation.limited ? -amount : 0,
    requestCount: 0,
  };
  adjustCachedBalances(context, reservation, -amount, change.tokenUsedDelta);
  const { settlements } = relayRuntime(context);
  settlements.submit(change, null);
  await settlements.settled();
}

export interface Settlement {
  quota: number;
  channelId: number;
  log: Omit<LogEntry, 'type' | 'user_id' | 'quota' | 'channel_id' | 'username' | 'token_name'>;
}

/**
 * Charges the final price: the difference to the reservation on the balances, the whole price on the used
 * counters (also for unlimited tokens, which one-api never counted), one request, the channel's usage, and
 * the consume log. In batch mode the counters go to the batcher. The relay calls it once the answer has
 * gone out, so no client waits for the write: this node's caches change at once (its next check sees the
 * new balance), /api reads wait for the write, and shutdown drains it.
 */
export function settle(context: AppContext, reservation: Reservation, settlement: Settlement): void {
  const delta = settlement.quota - reservation.amount;
  const change: QuotaChange = {
    userId: reservation.user.id,
    tokenId: reservation.token.id,
    limited: reservation.limited,
    channelId: settlement.channelId,
    balanceDelta: delta,
    usedQuota: settlement.quota,
    tokenUsedDelta: reservation.limited ? delta : settlement.quota,
    requestCount: 1,
  };
  reservation.amount = 0;
  const { log: fields } = settlement;
  // Every column named (no spread): a spread plus six more keys made a slow dictionary object per call.
  const log = logRow(context, {
    type: LogType.Consume,
    user_id: reservation.user.id,
    username: reservation.user.username,
    token_name: reservation.token.name,
    quota: settlement.quota,
    channel_id: settlement.channelId,
    content: fields.content,
    model_name: fields.model_name,
    prompt_tokens: fields.prompt_tokens,
    completion_tokens: fields.completion_tokens,
    request_id: fields.request_id,
    elapsed_time: fields.elapsed_time,
    is_stream: fields.is_stream,
    system_prompt_reset: fields.system_prompt_reset,
    created_at: fields.created_at,
  });
  const { batcher, settlements } = relayRuntime(context);
  if (batcher) batcher.add(change);
  adjustCachedBalances(context, reservation, delta, change.tokenUsedDelta);
  settlements.submit(batcher ? null : change, log);
}
