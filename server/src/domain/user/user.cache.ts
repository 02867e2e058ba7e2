import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/tables.js';
import { findUserByAccessToken, findUserById } from './user.repository.js';

/** The user row for an id, from the cache; null when there is no such user. */
export const getCachedUser = (context: AppContext, id: number): Promise<UserRow | null> =>
  context.caches.users.getOrLoad(String(id), async () => (await findUserById(context.database.db, id)) ?? null);

/** The longest system access token that can exist. */
export const longestAccessToken = 32;

/** The user owning a system access token, from the cache; null when none does. */
export async function getUserByAccessToken(context: AppContext, accessToken: string): Promise<UserRow | null> {
  // users.access_token is char(32): a longer one cannot exist, so it costs neither a query nor a cache entry.
  if (accessToken.length > longestAccessToken) return null;
  const userId = await context.caches.accessTokens.getOrLoad(accessToken, async () => {
    const user = await findUserByAccessToken(context.database.db, accessToken);
    return user?.id ?? 0;
  });
  return userId ? getCachedUser(context, userId) : null;
}

/** Call after any write to a user row: every node drops its cached copy before the next request. */
export async function invalidateUser(context: AppContext, user: Pick<UserRow, 'id' | 'access_token'>): Promise<void> {
  await context.bus.publish('user', user.id);
  if (user.access_token) await context.bus.publish('access-token', user.access_token);
}
