import type { ExpressionBuilder } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Database, UserRow } from '../../db/tables.js';
import { invalidateUser } from './user.cache.js';
import { findUserById } from './user.repository.js';

/**
 * The `set` value that ends every session of a user: sessions carry the generation they began with and
 * `authenticate` refuses one that differs from the row's (decision 0002). Use it in the same UPDATE as the
 * change that calls for it (password, ban, role), then `invalidateUser` so every node reads the new value.
 */
export const nextSessionGeneration = (eb: ExpressionBuilder<Database, 'users'>) => eb('session_generation', '+', 1);

/** Ends every session of the user on every node (sign-out, reset password). */
export async function revokeSessions(context: AppContext, user: Pick<UserRow, 'id' | 'access_token'>): Promise<void> {
  await context.database.db
    .updateTable('users')
    .set((eb) => ({ session_generation: nextSessionGeneration(eb) }))
    .where('id', '=', user.id)
    .execute();
  await invalidateUser(context, user);
}

/**
 * Sign-out: ends the sessions of the user if this one is still current (a stale cookie changes nothing).
 * Without a server-side session store this signs the user out everywhere, which decision 0002 accepts.
 */
export async function signOutEverywhere(context: AppContext, userId: number, generation: number): Promise<void> {
  const result = await context.database.db
    .updateTable('users')
    .set((eb) => ({ session_generation: nextSessionGeneration(eb) }))
    .where('id', '=', userId)
    .where('session_generation', '=', generation)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return;
  const user = await findUserById(context.database.db, userId);
  await invalidateUser(context, user ?? { id: userId, access_token: null });
}
