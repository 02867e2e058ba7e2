import type { AppContext } from '../../context.js';
import type { UserRow, UserUpdate } from '../../db/tables.js';
import { dashlessUuid, randomAlphanumeric } from '../../lib/random.js';
import { invalidateUser } from './user.cache.js';
import { Role } from './user.constants.js';
import { UserErrors } from './user.errors.js';
import { softDeleteUser } from './user.lifecycle.js';
import { assertCurrentPassword, hashPassword } from './user.password.js';
import { findUserById, isUsernameTaken } from './user.repository.js';
import { nextSessionGeneration } from './user.sessions.js';
import { isUniqueViolation } from './unique-violation.js';

/**
 * GET /api/user/self: the user's row as stored. The relay's cached copy keeps the balance it checks but not
 * the used quota or request count, and /api reads run after this node's pending charges are written, so
 * the stored row is the current one.
 */
export async function readSelf(context: AppContext, user: UserRow): Promise<UserRow> {
  return (await findUserById(context.database.db, user.id)) ?? user;
}

export interface SelfChanges {
  username?: string;
  password?: string;
  /** The current password, required to set a new one (the field name of new-api's console). */
  original_password?: string;
  display_name?: string;
}

/**
 * PUT /api/user/self: only the non-empty of the three fields change; a taken username is refused clearly.
 * A new password needs the current one and ends every session of the user; the row as now stored is
 * returned then, so the caller can keep its own session going, else null.
 */
export async function updateSelf(context: AppContext, user: UserRow, changes: SelfChanges): Promise<UserRow | null> {
  const update: UserUpdate = {};
  if (changes.username && changes.username !== user.username) {
    if (await isUsernameTaken(context.database.db, changes.username, user.id)) throw UserErrors.usernameTaken();
    update.username = changes.username;
  }
  if (changes.display_name) update.display_name = changes.display_name;
  if (changes.password) {
    await assertCurrentPassword(user, changes.original_password);
    update.password = await hashPassword(changes.password);
  }
  if (Object.keys(update).length === 0) return null;
  const endsSessions = update.password !== undefined;
  try {
    await context.database.db
      .updateTable('users')
      .set((eb) => (endsSessions ? { ...update, session_generation: nextSessionGeneration(eb) } : update))
      .where('id', '=', user.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw UserErrors.usernameTaken();
    throw error;
  }
  await invalidateUser(context, user);
  return endsSessions ? ((await findUserById(context.database.db, user.id)) ?? null) : null;
}

/** DELETE /api/user/self: anyone but root. */
export async function deleteSelf(context: AppContext, user: UserRow): Promise<void> {
  if (user.role === Role.Root) throw UserErrors.cannotDeleteRootSelf();
  await softDeleteUser(context, user);
}

/** GET /api/user/token: a fresh access token; the old one stops working on every node. */
export async function regenerateAccessToken(context: AppContext, user: UserRow): Promise<string> {
  const accessToken = dashlessUuid();
  try {
    await context.database.db
      .updateTable('users')
      .set({ access_token: accessToken })
      .where('id', '=', user.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw UserErrors.uuidCollision();
    throw error;
  }
  await invalidateUser(context, user);
  return accessToken;
}

/** GET /api/user/aff: the user's invitation code, generated on first request (another try on a collision). */
export async function ensureAffCode(context: AppContext, user: UserRow): Promise<string> {
  if (user.aff_code) return user.aff_code;
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      await context.database.db
        .updateTable('users')
        .set({ aff_code: randomAlphanumeric(4) })
        .where('id', '=', user.id)
        .where((eb) => eb.or([eb('aff_code', 'is', null), eb('aff_code', '=', '')]))
        .execute();
      break;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  await invalidateUser(context, user);
  const fresh = await findUserById(context.database.db, user.id);
  if (!fresh?.aff_code) throw UserErrors.uuidCollision();
  return fresh.aff_code;
}
