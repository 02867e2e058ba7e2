import { sql } from 'kysely';
import { insertReturningId } from '../../db/insert-id.js';
import type { DialectName } from '../../db/connect.js';
import type { Db, NewUser, UserRow, UserUpdate } from '../../db/tables.js';
import { UserStatus } from './user.constants.js';

/** The third-party id columns a user can be found or bound by. */
export type ProviderColumn = 'github_id' | 'lark_id' | 'wechat_id' | 'oidc_id';

export const findUserById = (db: Db, id: number): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByAccessToken = (db: Db, accessToken: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('access_token', '=', accessToken).executeTakeFirst();

export const findUserByUsername = (db: Db, username: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

export const findUserByAffCode = (db: Db, affCode: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('aff_code', '=', affCode).executeTakeFirst();

/** The live (not deleted) user bound to a third-party id. */
export const findUserByProviderId = (
  db: Db,
  column: ProviderColumn,
  providerId: string,
): Promise<UserRow | undefined> =>
  db
    .selectFrom('users')
    .selectAll()
    .where(column, '=', providerId)
    .where('status', '!=', UserStatus.Deleted)
    .orderBy('id')
    .executeTakeFirst();

/** Live users with this email (more than one is possible in databases migrated from one-api). */
export const findUsersByEmail = (db: Db, email: string): Promise<UserRow[]> =>
  db.selectFrom('users').selectAll().where('email', '=', email).where('status', '!=', UserStatus.Deleted).execute();

/** True when any live user has this email ("at least one", not one-api's "exactly one"). */
export async function isEmailTaken(db: Db, email: string, exceptUserId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .where('status', '!=', UserStatus.Deleted)
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function isUsernameTaken(db: Db, username: string, exceptUserId = 0): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Inserts a user and returns its id. */
export const insertUser = (db: Db, user: NewUser): Promise<number> => insertReturningId(db, 'users', user);

/**
 * Holds the user's row until the transaction ends, so that checks made in it (a count against a cap) cannot
 * be passed by a concurrent one at the same time. SQLite runs one transaction at a time already.
 */
export async function lockUser(transaction: Db, dialect: DialectName, id: number): Promise<void> {
  if (dialect === 'sqlite') return;
  await transaction.selectFrom('users').select('id').where('id', '=', id).forUpdate().execute();
}

export async function updateUserColumns(db: Db, id: number, changes: UserUpdate): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/** Adds (or with a negative amount, removes) quota in one statement, so concurrent writes cannot lose updates. */
export async function addUserQuota(db: Db, id: number, amount: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ quota: sql<number>`quota + ${amount}` })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type UserOrder = 'quota' | 'used_quota' | 'request_count' | 'id';

/** One page of live users, newest first unless ordered by a counter (descending, as one-api). */
export function listUsers(db: Db, page: number, pageSize: number, order: UserOrder): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll().where('status', '!=', UserStatus.Deleted);
  if (order !== 'id') query = query.orderBy(order, 'desc');
  return query
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset(page * pageSize)
    .execute();
}

/** `!` escapes LIKE wildcards: it means the same on SQLite, PostgreSQL and MySQL (a backslash does not). */
export const likePrefix = (keyword: string) => `${keyword.replace(/[!%_]/g, (char) => `!${char}`)}%`;

/**
 * Users whose id equals the keyword (only when it is a number) or whose username, email or display name
 * starts with it. The keyword is bound as data with its wildcards escaped; at most `limit` rows.
 */
export function searchUsers(db: Db, keyword: string, limit: number): Promise<UserRow[]> {
  const pattern = likePrefix(keyword);
  const numericId = /^\d{1,9}$/.test(keyword) ? Number(keyword) : undefined;
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => {
      const prefix = (column: 'username' | 'email' | 'display_name') =>
        sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
      const conditions = [prefix('username'), prefix('email'), prefix('display_name')];
      if (numericId !== undefined) conditions.push(sql<boolean>`${sql.ref('id')} = ${numericId}`);
      return eb.or(conditions);
    })
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
