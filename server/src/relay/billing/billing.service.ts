import type { AppContext } from '../../context.js';
import type { TokenRow, UserRow } from '../../db/tables.js';
import { logRow, quotaText, type LogEntry } from '../../domain/log/log.writer.js';
import { packReceipt } from '../../domain/log/log-receipt.js';
import type { Hold, Receipt } from '../../domain/pricing/price-call.js';
import { escapeHtml } from '../../domain/mail/mailer.js';
import { relayMetricsOf } from '../../metrics/index.js';
import { LogType } from '../../domain/log/log.constants.js';
import { budgetHoldOf, noteChargeForLimits, type BudgetHold } from '../limits/call-limits.js';
import { relayErrors } from '../relay-errors.js';
import { relayRuntime } from '../runtime.js';
import { readBalances, reserveQuota, type QuotaChange } from './quota.repository.js';

/** Quota held for one relay attempt: in the database (`amount`, a reservation row) or in this node's memory (`held`). */
export interface Reservation {
  user: UserRow;
  token: TokenRow;
  limited: boolean;
  /** Reserved in the database, with a row in `reservations` (`id`). */
  amount: number;
  id: string | null;
  /** Held on this node only: a trusted call's estimate, counted against the balance while the call runs. */
  held: number;
  /** Set when the balance could not pay the call's worst case: the output tokens the upstream was capped at. */
  outputCap?: number;
  /** The call's budgets (issue 31), which count this hold until the call ends or the hold is refunded. */
  budget?: BudgetHold;
}

/**
 * The trusted shortcut (one-api's 100×) skips the reservation's write while a balance is far above what is
 * in flight: this node's unreserved calls, this one included, stay within 1 % of the balance it knows. Each
 * node thus holds at most 1 % of a balance unwritten; the balance is read from the database at each
 * admission (reserve) and written back to the cached rows at each of this node's writes (cached-balances.ts).
 */
const trustFactor = 100;

/** Keeps this node's cached rows close to the database after a balance change (refreshed at each write). */
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

/** Tries at most this often to reserve a hold cut at the balance while other calls take the remainder first. */
const cutAttempts = 3;

/**
 * Holds what the attempt's price says to hold (`wanted`, decision 0014), against the balances the database
 * holds now (a debt run up on another node refuses here at once), less this node's holds in memory. A user,
 * or a limited token, at or below zero is refused whatever the call costs. A call that keeps this node's
 * unreserved calls within 1 % of the balance is trusted and held in memory only; otherwise both balances are
 * decreased atomically and the reservation recorded with this node's id, or the request is refused with the
 * balance that is short.
 *
 * With a `cut`, a hold the balance cannot pay is cut to what is left (the caller caps the call's output to
 * match), and refused only below the cut's floor; the reservation's `amount + held` is then less than `amount`.
 */
export async function reserve(
  context: AppContext,
  user: UserRow,
  token: TokenRow,
  wanted: Hold,
  requestId: string,
): Promise<Reservation> {
  const { amount, cut } = wanted;
  const limited = !token.unlimited_quota;
  const reservation: Reservation = { user, token, limited, amount: 0, id: null, held: 0 };
  const { inFlight, nodeId, batcher } = relayRuntime(context);
  for (let attempt = 1; ; attempt++) {
    const stored = await readBalances(context.database, user.id, limited ? token.id : null);
    // This node's cached rows count its charges not yet written; the database, other nodes' charges (and
    // BATCH_UPDATE_ENABLED's deltas, refunds too, are still this node's to apply to it).
    const userBalance = Math.min(user.quota, stored.user - (batcher?.pendingUserBalance(user.id) ?? 0));
    const tokenBalance = limited
      ? Math.min(token.remain_quota, (stored.token ?? 0) - (batcher?.pendingTokenBalance(token.id)?.balance ?? 0))
      : Infinity;
    if (tokenBalance <= 0) throw relayErrors.insufficientTokenQuota();
    if (userBalance <= 0) throw relayErrors.insufficientUserQuota();
    if (amount <= 0) return reservation;
    // The caller's budgets count the hold too (decision 0031): a hold is cut at the least room they have.
    const budget = budgetHoldOf(context, requestId);
    let hold = amount;
    if (cut !== undefined) {
      const userLeft = userBalance - inFlight.heldByUser(user.id);
      const tokenLeft = tokenBalance - inFlight.heldByToken(token.id);
      const budgetLeft = budget?.room() ?? Infinity;
      hold = Math.min(amount, userLeft, tokenLeft, budgetLeft);
      // The floor is priced only when the hold is cut: the whole price always covers it.
      const floor = hold < amount ? cut.floor() : 0;
      if (hold < floor)
        throw budgetLeft < floor
          ? budget!.refusal()
          : tokenLeft < floor
            ? relayErrors.insufficientTokenQuota()
            : relayErrors.insufficientUserQuota();
    }
    // Another call took the budget's room meanwhile: a cut hold tries again with what is left.
    if (budget && !(await budget.take(hold))) {
      if (cut !== undefined && attempt < cutAttempts) continue;
      throw budget.refusal();
    }
    const trusted =
      (inFlight.heldByUser(user.id) + hold) * trustFactor <= userBalance &&
      (!limited || (inFlight.heldByToken(token.id) + hold) * trustFactor <= tokenBalance);
    if (trusted) {
      inFlight.hold(user.id, token.id, hold);
      reservation.held = hold;
      reservation.budget = budget;
      return reservation;
    }
    const quotaBefore = user.quota;
    const id = inFlight.nextReservationId(nodeId);
    let refusal;
    try {
      refusal = await reserveQuota(context.database.db, {
        id,
        nodeId,
        userId: user.id,
        tokenId: token.id,
        limited,
        amount: hold,
        requestId,
      });
    } catch (error) {
      budget?.release(hold);
      throw error;
    }
    if (refusal === null) {
      reservation.amount = hold;
      reservation.id = id;
      reservation.budget = budget;
      inFlight.open(id);
      remindIfLow(context, user, quotaBefore, hold, hold < amount);
      adjustCachedBalances(context, reservation, hold, limited ? hold : 0);
      return reservation;
    }
    budget?.release(hold);
    // Another call took the remainder between the read and the write: a cut hold reads the balances again.
    if (cut !== undefined && attempt < cutAttempts) continue;
    throw refusal === 'token' ? relayErrors.insufficientTokenQuota() : relayErrors.insufficientUserQuota();
  }
}

/** Lets go of what a reservation holds on this node; returns the database reservation to close, if any. */
function release(context: AppContext, reservation: Reservation): { id: string; amount: number } | null {
  const { inFlight } = relayRuntime(context);
  if (reservation.held > 0) inFlight.release(reservation.user.id, reservation.token.id, reservation.held);
  reservation.held = 0;
  const closed = reservation.id === null ? null : { id: reservation.id, amount: reservation.amount };
  if (reservation.id !== null) inFlight.close(reservation.id);
  reservation.id = null;
  reservation.amount = 0;
  return closed;
}

/**
 * one-api's low-balance mail (server-behaviour §5.7): sent when a real reservation takes the balance below
 * QuotaRemindThreshold, or to zero. A hold cut at the balance takes it all while the call may cost little, so
 * it says the balance runs low, not that it is spent. Sent in the background; a failure is only logged.
 */
function remindIfLow(context: AppContext, user: UserRow, quotaBefore: number, amount: number, cut: boolean): void {
  const threshold = context.options.number('QuotaRemindThreshold');
  const after = quotaBefore - amount;
  const crossing = quotaBefore >= threshold && after < threshold;
  if (!user.email || !(crossing || after <= 0)) return;
  const title = after <= 0 && !cut ? '您的额度已用尽' : '您的额度即将用尽';
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
  reservation.budget?.release(reservation.amount + reservation.held);
  reservation.budget = undefined;
  const closed = release(context, reservation);
  if (!closed) return;
  const { amount } = closed;
  const change: QuotaChange = {
    userId: reservation.user.id,
    tokenId: reservation.token.id,
    tokenKey: reservation.token.key,
    limited: reservation.limited,
    channelId: 0,
    balanceDelta: -amount,
    usedQuota: 0,
    tokenUsedDelta: reservation.limited ? -amount : 0,
    requestCount: 0,
    reservation: closed,
  };
  adjustCachedBalances(context, reservation, -amount, change.tokenUsedDelta);
  const { settlements } = relayRuntime(context);
  settlements.submit(change, null);
  await settlements.settled();
}

export interface Settlement {
  /** What the call is charged, line by line: its quota is the charge, and it goes to the log with the hold. */
  receipt: Receipt;
  channelId: number;
  log: Omit<LogEntry, 'type' | 'user_id' | 'quota' | 'channel_id' | 'username' | 'token_name' | 'other'>;
}

/**
 * Charges the final price: the difference to the reservation on the balances, in full even when it takes a
 * balance below zero (a debt that blocks further calls, decision 0014), the whole price on the used
 * counters (also for unlimited tokens, which one-api never counted), one request, the channel's usage, and
 * the consume log, all in one write that also deletes the reservation's row. In batch mode the counters go to the batcher. The relay calls it once the answer has
 * gone out, so no client waits for the write: this node's caches change at once (its next check sees the
 * new balance), /api reads wait for the write, and shutdown drains it.
 */
export function settle(context: AppContext, reservation: Reservation, settlement: Settlement): void {
  const { receipt } = settlement;
  const quota = receipt.quota;
  // What the attempt held, in the database or on this node, before release() lets go of it.
  const reserved = reservation.amount + reservation.held;
  const closed = release(context, reservation);
  const delta = quota - (closed?.amount ?? 0);
  const change: QuotaChange = {
    userId: reservation.user.id,
    tokenId: reservation.token.id,
    tokenKey: reservation.token.key,
    limited: reservation.limited,
    channelId: settlement.channelId,
    balanceDelta: delta,
    usedQuota: quota,
    tokenUsedDelta: reservation.limited ? delta : quota,
    requestCount: 1,
    reservation: closed,
  };
  const { log: fields } = settlement;
  relayMetricsOf(context)?.charge(
    fields.model_name ?? '',
    settlement.channelId,
    fields.prompt_tokens ?? 0,
    fields.completion_tokens ?? 0,
    quota,
  );
  // Every column named (no spread): a spread plus six more keys made a slow dictionary object per call.
  const log = logRow(context, {
    type: LogType.Consume,
    user_id: reservation.user.id,
    username: reservation.user.username,
    token_name: reservation.token.name,
    quota,
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
    // The receipt's inputs in new-api's `other` column, in the same insert: no statement more per call; the
    // log API renders the receipt from them (log-receipt.ts).
    other: packReceipt(receipt, reserved, reservation.outputCap, fields.model_name),
  });
  noteChargeForLimits(context, fields.request_id, quota, (fields.prompt_tokens ?? 0) + (fields.completion_tokens ?? 0));
  const { batcher, settlements } = relayRuntime(context);
  if (batcher) batcher.add(change);
  adjustCachedBalances(context, reservation, delta, change.tokenUsedDelta);
  settlements.submit(batcher ? null : change, log);
}
