import bcrypt from 'bcryptjs';
import type { Db, UserRow } from '../../db/tables.js';
import { AppError } from '../../lib/errors.js';
import { UserStatus } from './user.constants.js';

const wrongCredentials = () =>
  new AppError('wrong_credentials', {
    zh: '用户名或密码错误，或用户已被封禁',
    en: 'Wrong username or password, or the user is banned',
  });

let dummyHash: string | undefined;

/** Checks a username (or email) and password; one message for every failure so accounts cannot be probed. */
export async function verifyPassword(db: Db, usernameOrEmail: string, password: string): Promise<UserRow> {
  const user =
    (await db.selectFrom('users').selectAll().where('username', '=', usernameOrEmail).executeTakeFirst()) ??
    (usernameOrEmail.includes('@')
      ? await db
          .selectFrom('users')
          .selectAll()
          .where('email', '=', usernameOrEmail)
          .where('status', '=', UserStatus.Enabled)
          .orderBy('id')
          .executeTakeFirst()
      : undefined);
  // Compare against a dummy hash when there is no user, so timing does not tell which accounts exist.
  dummyHash ??= await bcrypt.hash('no such user', 10);
  const hash = user?.password || dummyHash;
  const matches = await bcrypt.compare(password, hash);
  if (!user || !matches || !user.password || user.status !== UserStatus.Enabled) throw wrongCredentials();
  return user;
}
