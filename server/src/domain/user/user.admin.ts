import { checkLimitChanges, limitFieldsOf, pickLimitChanges, type LimitFields } from '../limits/limit-fields.js';
import type { AppContext } from '../../context.js';
import type { Db, UserRow, UserUpdate } from '../../db/tables.js';
import { LogType } from '../log/log.constants.js';
import { quotaText, recordLog } from '../log/log.writer.js';
import { invalidateUser } from './user.cache.js';
import { Role, UserStatus } from './user.constants.js';
import { UserErrors } from './user.errors.js';
import { setUserRole, setUserStatus, softDeleteUser } from './user.lifecycle.js';
import { assertCurrentPassword, hashPassword } from './user.password.js';
import { addUserQuota, findUserById, findUserByUsername, isUsernameTaken } from './user.repository.js';
import { nextSessionGeneration } from './user.sessions.js';
import { isUniqueViolation } from './unique-violation.js';

/** §3.7: a caller acts on a user of a strictly lower role; root acts on anyone (root-specific limits apply). */
export const outranks = (caller: UserRow, target: UserRow) => caller.role === Role.Root || caller.role > target.role;

/** A live user by id, or "user not found" (deleted users are gone for the administration). */
export async function findLiveUserOrThrow(context: AppContext, id: number): Promise<UserRow> {
  const user = await findUserById(context.database.db, id);
  if (!user || user.status === UserStatus.Deleted) throw UserErrors.userNotFound();
  return user;
}

/** The fields an administrator may change; everything else (counters, tokens, aff code, ids) is not writable. */
export interface AdminUserChanges extends Partial<LimitFields> {
  id: number;
  username?: string;
  display_name?: string;
  password?: string;
  /** Needed only when the caller sets their own password (root editing itself through the admin route). */
  original_password?: string;
  group?: string;
  quota?: number;
  /** The quota the edit page loaded: the edit then moves the balance by `quota − original_quota`. */
  original_quota?: number;
  role?: number;
  status?: number;
}

/** The balance just before and just after an admin's quota edit. */
interface QuotaMove {
  before: number;
  after: number;
}

/**
 * Adds an edit's difference in one statement, so charges written since the page loaded (or while this runs)
 * are kept; the balance is then read back under the row lock the update took.
 */
async function moveQuota(db: Db, userId: number, difference: number): Promise<QuotaMove> {
  if (difference !== 0) await addUserQuota(db, userId, difference);
  // Not `select quota` alone: on SQLite that text is the relay's cached statement, switched to pluck mode.
  const row = await db.selectFrom('users').select(['id', 'quota']).where('id', '=', userId).executeTakeFirstOrThrow();
  const after = Number(row.quota);
  return { before: after - difference, after };
}

/** one-api's overwrite, for a request that does not say what it loaded (one-api's own console). */
async function overwriteQuota(db: Db, userId: number, quota: number): Promise<QuotaMove> {
  const current = await db
    .selectFrom('users')
    .select(['id', 'quota'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return moveQuota(db, userId, quota - Number(current.quota));
}

/**
 * PUT /api/user/: explicit fields only, quota 0 allowed. With `original_quota` the quota moves by what the
 * admin typed (`quota − original_quota`); without, it is overwritten. A manage log says which, when it moved.
 */
export async function updateUserAsAdmin(
  context: AppContext,
  caller: UserRow,
  changes: AdminUserChanges,
): Promise<UserRow> {
  const target = await findLiveUserOrThrow(context, changes.id);
  if (!outranks(caller, target)) throw UserErrors.noRightToUpdate();
  const update: UserUpdate = {};
  if (changes.role !== undefined && changes.role !== target.role) {
    if (caller.role !== Role.Root && caller.role <= changes.role) throw UserErrors.noRightToRaise();
    if (target.role === Role.Root) throw UserErrors.cannotChangeRoot();
    update.role = changes.role;
  }
  if (changes.status !== undefined && changes.status !== target.status) {
    if (target.role === Role.Root) throw UserErrors.cannotDisableRoot();
    update.status = changes.status;
  }
  if (changes.username && changes.username !== target.username) {
    if (await isUsernameTaken(context.database.db, changes.username, target.id)) throw UserErrors.usernameTaken();
    update.username = changes.username;
  }
  if (changes.display_name !== undefined && changes.display_name !== '') update.display_name = changes.display_name;
  if (changes.group) update.group = changes.group;
  Object.assign(update, checkLimitChanges(pickLimitChanges(changes), limitFieldsOf(target)));
  if (changes.password) {
    if (target.id === caller.id) await assertCurrentPassword(target, changes.original_password);
    update.password = await hashPassword(changes.password);
  }
  // A new password, a new role or a ban ends the user's sessions (decision 0002).
  const endsSessions =
    update.password !== undefined ||
    update.role !== undefined ||
    (update.status !== undefined && update.status !== UserStatus.Enabled);

  let move: QuotaMove | null;
  try {
    move = await context.database.db.transaction().execute(async (transaction) => {
      if (Object.keys(update).length > 0)
        await transaction
          .updateTable('users')
          .set((eb) => (endsSessions ? { ...update, session_generation: nextSessionGeneration(eb) } : update))
          .where('id', '=', target.id)
          .execute();
      if (changes.quota === undefined) return null;
      return changes.original_quota === undefined
        ? overwriteQuota(transaction, target.id, changes.quota)
        : moveQuota(transaction, target.id, changes.quota - changes.original_quota);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw UserErrors.usernameTaken();
    throw error;
  }
  await invalidateUser(context, target);
  const updated = (await findUserById(context.database.db, target.id))!;
  if (move && move.before !== move.after) {
    const how =
      changes.original_quota === undefined
        ? '（直接覆盖：请求未带 original_quota）'
        : `（按编辑差额调整：编辑页载入时为 ${quotaText(context, changes.original_quota)}，保存为 ${quotaText(context, changes.quota!)}）`;
    await recordLog(context, {
      user_id: target.id,
      username: updated.username,
      type: LogType.Manage,
      content: `管理员将用户额度从 ${quotaText(context, move.before)}修改为 ${quotaText(context, move.after)}${how}`,
    });
  }
  return updated;
}

export type ManageAction = 'disable' | 'enable' | 'delete' | 'promote' | 'demote';

/** POST /api/user/manage with every rule of §2.4 / §3.7; answers the user as it now is. */
export async function manageUser(
  context: AppContext,
  caller: UserRow,
  username: string,
  action: ManageAction,
): Promise<UserRow> {
  const target = await findUserByUsername(context.database.db, username);
  if (!target || target.status === UserStatus.Deleted) throw UserErrors.userNotFound();
  if (!outranks(caller, target)) throw UserErrors.noRightToUpdate();
  switch (action) {
    case 'disable':
      if (target.role === Role.Root) throw UserErrors.cannotDisableRoot();
      await setUserStatus(context, target, UserStatus.Disabled);
      break;
    case 'enable':
      await setUserStatus(context, target, UserStatus.Enabled);
      break;
    case 'delete':
      if (target.role === Role.Root) throw UserErrors.cannotDeleteRoot();
      await softDeleteUser(context, target);
      break;
    case 'promote':
      if (caller.role !== Role.Root) throw UserErrors.onlyRootPromotes();
      if (target.role >= Role.Admin) throw UserErrors.alreadyAdmin();
      await setUserRole(context, target, Role.Admin);
      break;
    case 'demote':
      if (target.role === Role.Root) throw UserErrors.cannotDemoteRoot();
      if (target.role === Role.Common) throw UserErrors.alreadyCommon();
      await setUserRole(context, target, Role.Common);
      break;
  }
  return (await findUserById(context.database.db, target.id))!;
}

/** DELETE /api/user/:id: only a strictly higher role may delete (so not even root deletes a root). */
export async function deleteUserAsAdmin(context: AppContext, caller: UserRow, id: number): Promise<void> {
  const target = await findLiveUserOrThrow(context, id);
  if (caller.role <= target.role) throw UserErrors.noRightToDelete();
  await softDeleteUser(context, target);
}

/** POST /api/topup: adds quota to an existing user atomically and writes a top-up log. */
export async function topUpUser(context: AppContext, userId: number, quota: number, remark: string): Promise<void> {
  if (quota <= 0) throw UserErrors.quotaNotPositive();
  const target = await findLiveUserOrThrow(context, userId);
  if (!(await addUserQuota(context.database.db, target.id, quota))) throw UserErrors.userNotFound();
  await invalidateUser(context, target);
  await recordLog(context, {
    user_id: target.id,
    username: target.username,
    type: LogType.TopUp,
    quota,
    content: remark || `通过 API 充值 ${quotaText(context, quota)}`,
  });
}
