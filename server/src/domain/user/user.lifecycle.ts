import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/tables.js';
import { randomHex } from '../../lib/random.js';
import { UserStatus } from './user.constants.js';
import { invalidateUser } from './user.cache.js';
import { nextSessionGeneration } from './user.sessions.js';

/**
 * Soft deletion: the row stays (logs and tokens point at it) but the name becomes `deleted_<32 hex>`,
 * the status 3, and the email, third-party ids and access token are released, so they can be used again
 * by a new account (one-api kept them, blocking re-registration). Every node forgets the user at once.
 */
export async function softDeleteUser(context: AppContext, user: UserRow): Promise<void> {
  await context.database.db
    .updateTable('users')
    .set((eb) => ({
      session_generation: nextSessionGeneration(eb),
      username: `deleted_${randomHex(16)}`,
      status: UserStatus.Deleted,
      email: '',
      github_id: '',
      wechat_id: '',
      lark_id: '',
      oidc_id: '',
      access_token: null,
    }))
    .where('id', '=', user.id)
    .execute();
  await invalidateUser(context, user);
}

/** Sets the status (enable / disable) and makes every node apply it on the next request; a ban ends sessions. */
export async function setUserStatus(context: AppContext, user: UserRow, status: number): Promise<void> {
  await context.database.db
    .updateTable('users')
    .set((eb) =>
      status === UserStatus.Enabled ? { status } : { status, session_generation: nextSessionGeneration(eb) },
    )
    .where('id', '=', user.id)
    .execute();
  await invalidateUser(context, user);
}

/** Sets the role, ends the user's sessions and makes every node apply it on the next request. */
export async function setUserRole(context: AppContext, user: UserRow, role: number): Promise<void> {
  await context.database.db
    .updateTable('users')
    .set((eb) => ({ role, session_generation: nextSessionGeneration(eb) }))
    .where('id', '=', user.id)
    .execute();
  await invalidateUser(context, user);
}
