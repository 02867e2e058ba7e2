import { insertReturningId } from '../../db/insert-id.js';
import type { Db, NewUser, UserRow } from '../../db/tables.js';

export const findUserById = (db: Db, id: number): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByAccessToken = (db: Db, accessToken: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('access_token', '=', accessToken).executeTakeFirst();

export const findUserByUsername = (db: Db, username: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

export async function countUsers(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Inserts a user and returns its id. */
export const insertUser = (db: Db, user: NewUser): Promise<number> => insertReturningId(db, 'users', user);
