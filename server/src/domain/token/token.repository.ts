import type { LimitFields } from '../limits/limit-fields.js';
import { sql } from 'kysely';
import type { Db, NewToken, TokenRow } from '../../db/tables.js';
import { insertReturningId } from '../../db/insert-id.js';
import { startsWith } from '../../lib/like-pattern.js';
import { itemsPerPage, maxSearchResults } from './token.constants.js';

/** How a token list is sorted: one-api's `order` parameter. */
export type TokenOrder = 'remain_quota' | 'used_quota' | 'id';

/** One page of a user's tokens (10 rows). */
export function listTokensOfUser(db: Db, userId: number, page: number, order: TokenOrder): Promise<TokenRow[]> {
  let query = db.selectFrom('tokens').selectAll().where('user_id', '=', userId);
  if (order === 'remain_quota') query = query.orderBy('unlimited_quota', 'desc').orderBy('remain_quota', 'desc');
  if (order === 'used_quota') query = query.orderBy('used_quota', 'desc');
  return query
    .orderBy('id', 'desc')
    .limit(itemsPerPage)
    .offset(page * itemsPerPage)
    .execute();
}

/** A user's tokens whose name starts with the keyword, newest first, at most 100. */
export const searchTokensOfUser = (db: Db, userId: number, keyword: string): Promise<TokenRow[]> =>
  db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where(startsWith('name', keyword))
    .orderBy('id', 'desc')
    .limit(maxSearchResults)
    .execute();

/** The token with this id if it belongs to this user. */
export const findTokenOfUser = (db: Db, userId: number, id: number): Promise<TokenRow | undefined> =>
  db.selectFrom('tokens').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

export const findTokenById = (db: Db, id: number): Promise<TokenRow | undefined> =>
  db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();

/** The token with this relay key (stored without `sk-`). */
export const findTokenByKey = (db: Db, key: string): Promise<TokenRow | undefined> =>
  db.selectFrom('tokens').selectAll().where('key', '=', key).executeTakeFirst();

export async function countTokensOfUser(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('tokens')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Inserts a token and returns its id. */
export const insertToken = (db: Db, token: NewToken): Promise<number> => insertReturningId(db, 'tokens', token);

/** The columns a management update may write. */
export type TokenChanges = Partial<
  Pick<TokenRow, 'name' | 'expired_time' | 'remain_quota' | 'unlimited_quota' | 'models' | 'subnet' | 'status'>
> &
  Partial<LimitFields>;

/**
 * Writes the given columns of a user's token, and adds `remainQuotaDifference` to its remaining quota in the
 * same statement; false when the user has no such token.
 */
export async function updateTokenOfUser(
  db: Db,
  userId: number,
  id: number,
  changes: TokenChanges,
  remainQuotaDifference = 0,
): Promise<boolean> {
  const moved =
    remainQuotaDifference === 0 ? {} : { remain_quota: sql<number>`remain_quota + ${remainQuotaDifference}` };
  if (Object.keys(changes).length === 0 && remainQuotaDifference === 0)
    return (await findTokenOfUser(db, userId, id)) !== undefined;
  const result = await db
    .updateTable('tokens')
    .set({ ...changes, ...moved })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a user's token; false when the user has no such token. */
export async function deleteTokenOfUser(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
