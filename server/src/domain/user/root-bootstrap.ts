import bcrypt from 'bcryptjs';
import type { Config } from '../../config/env.js';
import type { Db } from '../../db/tables.js';
import { dashlessUuid } from '../../lib/random.js';
import { nowSeconds } from '../../lib/time.js';
import { Role, UserStatus, rootInitialQuota } from './user.constants.js';
import { countUsers, insertUser } from './user.repository.js';

/** On an empty users table, creates root / 123456 and, when configured, its relay token and access token. */
export async function bootstrapRoot(db: Db, config: Config): Promise<boolean> {
  if ((await countUsers(db)) > 0) return false;
  const created = db.transaction().execute(async (transaction) => {
    const rootId = await insertUser(transaction, {
      username: 'root',
      password: await bcrypt.hash('123456', 10),
      display_name: 'Root User',
      role: Role.Root,
      status: UserStatus.Enabled,
      quota: rootInitialQuota,
      access_token: config.INITIAL_ROOT_ACCESS_TOKEN || dashlessUuid(),
      aff_code: null,
    });
    if (config.INITIAL_ROOT_TOKEN) {
      const now = nowSeconds();
      await transaction
        .insertInto('tokens')
        .values({
          user_id: rootId,
          key: config.INITIAL_ROOT_TOKEN.replace(/^sk-/, ''),
          name: 'Initial Root Token',
          status: 1,
          created_time: now,
          accessed_time: now,
          expired_time: -1,
          remain_quota: rootInitialQuota,
          // 1 rather than true: better-sqlite3 binds no booleans, and PostgreSQL reads the untyped '1' as true.
          unlimited_quota: 1,
          models: '',
          subnet: '',
        })
        .execute();
    }
  });
  try {
    await created;
  } catch (error) {
    // Two nodes started at once on an empty database: the other one created root (unique username).
    if ((await countUsers(db)) > 0) return false;
    throw error;
  }
  return true;
}
