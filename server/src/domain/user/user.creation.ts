import type { AppContext } from '../../context.js';
import type { Db, UserRow } from '../../db/tables.js';
import { dashlessUuid, generateTokenKey, randomAlphanumeric, randomHex } from '../../lib/random.js';
import { nowSeconds } from '../../lib/time.js';
import { LogType } from '../log/log.constants.js';
import { quotaText, recordLog } from '../log/log.writer.js';
import { Role, UserStatus } from './user.constants.js';
import { UserErrors } from './user.errors.js';
import {
  addUserQuota,
  findUserByAffCode,
  findUserById,
  insertUser,
  isUsernameTaken,
  type ProviderColumn,
} from './user.repository.js';
import { invalidateUser } from './user.cache.js';
import { isUniqueViolation } from './unique-violation.js';

/** What a new account starts with. Exactly one of `username` and `usernamePrefix` is given. */
export interface NewAccount {
  /** A chosen username (password sign-up, admin creation). */
  username?: string;
  /** For third-party sign-up: the user becomes `<prefix><id>` (e.g. github_17), unique by construction. */
  usernamePrefix?: string;
  /** A bcrypt hash, or '' for accounts that cannot use password sign-in. */
  passwordHash: string;
  displayName: string;
  email?: string;
  provider?: { column: ProviderColumn; id: string };
  /** The inviter's aff code from the sign-up form; unknown codes are ignored, as one-api does. */
  inviterAffCode?: string;
}

const maxAttempts = 6;

/** Deadlocks and serialization failures are worth another attempt, like a collided random code. */
function isRetryable(error: unknown): boolean {
  if (isUniqueViolation(error)) return true;
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  return code === '40P01' || code === '40001' || errno === 1213 || code === 'SQLITE_BUSY';
}

/**
 * Creates a user with one-api's extras in one transaction: a 4-character aff code and an access token
 * (regenerated on collision), QuotaForNewUser, invitation rewards for both sides, and the unlimited,
 * never-expiring token "default". The system logs follow once the rows are committed.
 */
export async function createAccount(context: AppContext, account: NewAccount): Promise<UserRow> {
  const { database, options } = context;
  const quotaForNewUser = options.number('QuotaForNewUser');
  const inviter = account.inviterAffCode ? await findUserByAffCode(database.db, account.inviterAffCode) : undefined;
  const liveInviter = inviter && inviter.status === UserStatus.Enabled ? inviter : undefined;
  const quotaForInvitee = liveInviter ? options.number('QuotaForInvitee') : 0;
  const quotaForInviter = liveInviter ? options.number('QuotaForInviter') : 0;

  let userId = 0;
  for (let attempt = 1; userId === 0; attempt++) {
    if (account.username !== undefined && (await isUsernameTaken(database.db, account.username)))
      throw UserErrors.usernameTaken();
    try {
      userId = await database.db.transaction().execute(async (transaction) => {
        const id = await insertUser(transaction, {
          username: account.username ?? `pending_${randomHex(12)}`,
          password: account.passwordHash,
          display_name: account.displayName,
          email: account.email ?? '',
          role: Role.Common,
          status: UserStatus.Enabled,
          quota: quotaForNewUser + quotaForInvitee,
          access_token: dashlessUuid(),
          aff_code: randomAlphanumeric(4),
          inviter_id: liveInviter?.id ?? 0,
          ...(account.provider ? { [account.provider.column]: account.provider.id } : {}),
        });
        if (account.usernamePrefix !== undefined)
          await assignGeneratedUsername(transaction, id, account.usernamePrefix);
        if (liveInviter && quotaForInviter > 0) await addUserQuota(transaction, liveInviter.id, quotaForInviter);
        await insertDefaultToken(transaction, id);
        return id;
      });
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (account.username !== undefined && (await isUsernameTaken(database.db, account.username)))
        throw UserErrors.usernameTaken();
      if (attempt >= maxAttempts) throw error;
    }
  }

  const user = (await findUserById(database.db, userId))!;
  // A node may have cached "no such user" for this id or token before the row existed.
  await invalidateUser(context, user);
  if (liveInviter && quotaForInviter > 0) await invalidateUser(context, liveInviter);
  await writeSignUpLogs(context, user, quotaForNewUser, quotaForInvitee, liveInviter, quotaForInviter);
  return user;
}

/** `<prefix><id>`, or with a random suffix when someone already chose that name by hand. */
async function assignGeneratedUsername(db: Db, id: number, prefix: string): Promise<void> {
  let username = `${prefix}${id}`;
  if (await isUsernameTaken(db, username)) username = `${username}_${randomHex(3)}`;
  await db.updateTable('users').set({ username }).where('id', '=', id).execute();
}

/** The token every new account gets: "default", unlimited, never expiring. */
async function insertDefaultToken(db: Db, userId: number): Promise<void> {
  const now = nowSeconds();
  await db
    .insertInto('tokens')
    .values({
      user_id: userId,
      key: generateTokenKey(),
      status: 1,
      name: 'default',
      created_time: now,
      accessed_time: now,
      expired_time: -1,
      remain_quota: -1,
      // 1 rather than true: better-sqlite3 binds no booleans, and PostgreSQL reads the untyped '1' as true.
      unlimited_quota: 1,
      used_quota: 0,
      models: '',
      subnet: '',
    })
    .execute();
}

async function writeSignUpLogs(
  context: AppContext,
  user: UserRow,
  quotaForNewUser: number,
  quotaForInvitee: number,
  inviter: UserRow | undefined,
  quotaForInviter: number,
): Promise<void> {
  const system = (target: { id: number; username: string }, content: string) =>
    recordLog(context, { user_id: target.id, username: target.username, type: LogType.System, content });
  if (quotaForNewUser > 0) await system(user, `新用户注册赠送 ${quotaText(context, quotaForNewUser)}`);
  if (quotaForInvitee > 0) await system(user, `使用邀请码赠送 ${quotaText(context, quotaForInvitee)}`);
  if (inviter && quotaForInviter > 0) await system(inviter, `邀请用户赠送 ${quotaText(context, quotaForInviter)}`);
}
