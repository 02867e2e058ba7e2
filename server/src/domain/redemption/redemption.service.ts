import type { AppContext } from '../../context.js';
import type { RedemptionRow, UserRow } from '../../db/tables.js';
import { dashlessUuid } from '../../lib/random.js';
import { nowSeconds } from '../../lib/time.js';
import { LogType } from '../log/log.constants.js';
import { quotaText, recordLog } from '../log/log.writer.js';
import { invalidateUser } from '../user/user.cache.js';
import {
  defaultRedemptionQuota,
  maxRedemptionBatch,
  maxRedemptionNameLength,
  RedemptionStatus,
} from './redemption.constants.js';
import {
  redeemFailed,
  redemptionAlreadyUsed,
  redemptionCountTooLarge,
  redemptionCountTooSmall,
  redemptionKeyInvalid,
  redemptionKeyMissing,
  redemptionNameLength,
  redemptionNotFound,
  redemptionQuotaInvalid,
  redemptionUsedCannotToggle,
} from './redemption.errors.js';
import {
  claimRedemption,
  deleteRedemption,
  findRedemptionById,
  findRedemptionByKey,
  insertRedemptions,
  setUnusedRedemptionStatus,
  updateRedemption,
} from './redemption.repository.js';

function checkName(name: string): string {
  const length = [...name.trim()].length;
  if (length < 1 || length > maxRedemptionNameLength) throw redemptionNameLength();
  return name.trim();
}

export async function findRedemptionOrThrow(context: AppContext, id: number): Promise<RedemptionRow> {
  const redemption = await findRedemptionById(context.database.db, id);
  if (!redemption) throw redemptionNotFound();
  return redemption;
}

/** Makes `count` codes at once (all or none, in one transaction) and answers their keys. */
export async function createRedemptions(
  context: AppContext,
  adminId: number,
  input: { name: string; quota: number; count: number },
): Promise<string[]> {
  const name = checkName(input.name);
  if (input.count < 1) throw redemptionCountTooSmall();
  if (input.count > maxRedemptionBatch) throw redemptionCountTooLarge();
  if (input.quota < 0) throw redemptionQuotaInvalid();
  const quota = input.quota === 0 ? defaultRedemptionQuota : input.quota;
  const now = nowSeconds();
  const keys = Array.from({ length: input.count }, () => dashlessUuid());
  await context.database.db.transaction().execute((transaction) =>
    insertRedemptions(
      transaction,
      keys.map((key) => ({ user_id: adminId, key, name, quota, created_time: now })),
    ),
  );
  return keys;
}

/** Renames a code and/or changes its quota; omitted fields keep their value. */
export async function editRedemption(
  context: AppContext,
  id: number,
  input: { name?: string | undefined; quota?: number | undefined },
): Promise<RedemptionRow> {
  const changes: { name?: string; quota?: number } = {};
  if (input.name !== undefined) changes.name = checkName(input.name);
  if (input.quota !== undefined) {
    if (input.quota <= 0) throw redemptionQuotaInvalid();
    changes.quota = input.quota;
  }
  if (!(await updateRedemption(context.database.db, id, changes))) throw redemptionNotFound();
  return findRedemptionOrThrow(context, id);
}

/** Enables (1) or disables (2) a code; a used code keeps its status. */
export async function setRedemptionStatus(context: AppContext, id: number, status: number): Promise<RedemptionRow> {
  if (!(await setUnusedRedemptionStatus(context.database.db, id, status))) {
    await findRedemptionOrThrow(context, id);
    throw redemptionUsedCannotToggle();
  }
  return findRedemptionOrThrow(context, id);
}

export async function removeRedemption(context: AppContext, id: number): Promise<void> {
  if (!(await deleteRedemption(context.database.db, id))) throw redemptionNotFound();
}

/**
 * Redeems a code for the user and answers the quota added. Claiming the code (a conditional UPDATE on
 * status 1) and crediting the user happen in one transaction, so a code pays out exactly once however
 * many requests race for it, and never without the credit. The top-up log is written after the commit.
 */
export async function redeemCode(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'username' | 'access_token'>,
  rawKey: string,
): Promise<number> {
  const key = rawKey.trim();
  if (key === '') throw redemptionKeyMissing();
  const now = nowSeconds();
  const quota = await context.database.db.transaction().execute(async (transaction) => {
    if (!(await claimRedemption(transaction, key, user.id, now))) {
      throw (await findRedemptionByKey(transaction, key)) ? redemptionAlreadyUsed() : redemptionKeyInvalid();
    }
    const code = await findRedemptionByKey(transaction, key);
    if (!code || Number(code.status) !== RedemptionStatus.Used) throw redemptionKeyInvalid();
    const credited = await transaction
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '+', Number(code.quota)) }))
      .where('id', '=', user.id)
      .executeTakeFirst();
    if (Number(credited.numUpdatedRows) !== 1) throw redeemFailed('用户不存在', 'no such user');
    return Number(code.quota);
  });
  await invalidateUser(context, user);
  // The quota is credited already: a failing log write must not turn the answer into an error.
  await recordLog(context, {
    user_id: user.id,
    username: user.username,
    type: LogType.TopUp,
    content: `通过兑换码充值 ${quotaText(context, quota)}`,
    quota,
  }).catch((error: unknown) => context.logger.error({ error, userId: user.id }, 'top-up log write failed'));
  return quota;
}
