import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { LocalCache } from '../../cache/local-cache.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/tables.js';
import { AppError } from '../../lib/errors.js';
import { nowSeconds } from '../../lib/time.js';

/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30 s, one step of drift either way) and ten single-use backup codes
 * (decision 0030). The secret is stored AES-256-GCM encrypted under a key derived from SESSION_SECRET and
 * is shown once, at setup; backup codes are stored as SHA-256 hashes. A TOTP code is accepted once: the
 * step it belongs to is remembered, so a code seen over a shoulder cannot be replayed. Ten wrong codes in
 * fifteen minutes refuse the account's codes until the window ends.
 */
const backupCodeCount = 10;
const twoFactorTopic = 'two-factor';
/** Wrong codes one account may send in a window, from any number of addresses, before codes are refused. */
const failureLimit = 10;
const failureWindowSeconds = 15 * 60;

export const TwoFactorErrors = {
  wrongCode: () =>
    new AppError('wrong_2fa_code', { zh: '验证码错误或已使用', en: 'Wrong or already used verification code' }),
  notSetUp: () =>
    new AppError('2fa_not_set_up', { zh: '请先设置两步验证', en: 'Set up two-factor authentication first' }),
  alreadyEnabled: () =>
    new AppError('2fa_already_enabled', {
      zh: '两步验证已启用，请先停用',
      en: 'Two-factor authentication is already on: turn it off first',
    }),
  notEnabled: () =>
    new AppError('2fa_not_enabled', { zh: '两步验证未启用', en: 'Two-factor authentication is not on' }),
  tooManyFailures: () =>
    new AppError('2fa_too_many_failures', {
      zh: '验证码错误次数过多，请 15 分钟后再试',
      en: 'Too many wrong codes: try again in 15 minutes',
    }),
  required: () =>
    new AppError('2fa_required', { zh: '请输入两步验证码', en: 'Enter your two-factor code' }, 200, {
      require_2fa: true,
    }),
};

function cipherKey(context: AppContext): Buffer {
  return createHash('sha256').update(`modelgate totp secret\0${context.config.SESSION_SECRET}`).digest();
}

function encryptSecret(context: AppContext, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(context), iv);
  const sealed = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join(
    '.',
  );
}

function decryptSecret(context: AppContext, stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('unreadable TOTP secret');
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(context), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}

const hashCode = (code: string) => createHash('sha256').update(normaliseBackupCode(code)).digest('hex');
const normaliseBackupCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

function totpFor(context: AppContext, username: string, base32: string): TOTP {
  return new TOTP({
    issuer: context.options.string('SystemName') || 'ModelGate',
    label: username,
    secret: Secret.fromBase32(base32),
  });
}

/**
 * Wrong codes per account (the per-IP limit alone lets many addresses share one account's million codes):
 * counted in Redis when configured, so every node sees them, else on this node.
 */
const localFailures = new Map<number, { count: number; since: number }>();
const failureKey = (userId: number) => `two-factor-failures:${userId}`;

async function failuresOf(context: AppContext, userId: number): Promise<number> {
  if (context.redis) {
    try {
      return Number((await context.redis.get(failureKey(userId))) ?? 0);
    } catch {
      // Redis away: this node's count below
    }
  }
  const entry = localFailures.get(userId);
  return entry && nowSeconds() - entry.since < failureWindowSeconds ? entry.count : 0;
}

async function recordFailure(context: AppContext, userId: number): Promise<void> {
  const now = nowSeconds();
  const entry = localFailures.get(userId);
  if (entry && now - entry.since < failureWindowSeconds) entry.count++;
  else localFailures.set(userId, { count: 1, since: now });
  if (localFailures.size > 10_000)
    for (const [id, old] of localFailures) if (now - old.since >= failureWindowSeconds) localFailures.delete(id);
  if (!context.redis) return;
  try {
    const count = await context.redis.incr(failureKey(userId));
    if (count === 1) await context.redis.expire(failureKey(userId), failureWindowSeconds);
  } catch {
    // Redis away: counted on this node
  }
}

async function clearFailures(context: AppContext, userId: number): Promise<void> {
  localFailures.delete(userId);
  if (!context.redis) return;
  try {
    await context.redis.del(failureKey(userId));
  } catch {
    // Redis away: the key expires by itself
  }
}

const enabledCaches = new WeakMap<AppContext, LocalCache<boolean>>();

/** user id → has a second factor on; emptied through the bus (topic `two-factor`) on every node. */
function enabledCache(context: AppContext): LocalCache<boolean> {
  let cache = enabledCaches.get(context);
  if (cache) return cache;
  cache = new LocalCache(Math.max(context.config.SYNC_FREQUENCY, 1) * 1000);
  const created = cache;
  context.bus.subscribe(({ topic, key }) => {
    if (topic === twoFactorTopic) created.delete(key);
    if (topic === 'resync') created.clear();
  });
  enabledCaches.set(context, cache);
  return cache;
}

async function readRow(context: AppContext, userId: number) {
  return context.database.db
    .selectFrom('user_two_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** True when the user signs in with a second factor (cached: admin routes ask on every request). */
export function hasTwoFactor(context: AppContext, userId: number): Promise<boolean> {
  return enabledCache(context).getOrLoad(String(userId), async () =>
    Boolean((await readRow(context, userId))?.enabled),
  );
}

export interface TwoFactorSetup {
  secret: string;
  otpauth_url: string;
  backup_codes: string[];
}

/**
 * A new secret and backup codes, stored but not in force until `enableTwoFactor` confirms a code from the
 * authenticator. Refused while a second factor is on: turning it off first needs a code.
 */
export async function setUpTwoFactor(context: AppContext, user: UserRow): Promise<TwoFactorSetup> {
  const existing = await readRow(context, user.id);
  if (existing?.enabled) throw TwoFactorErrors.alreadyEnabled();
  const secret = new Secret({ size: 20 }).base32;
  const backupCodes = Array.from({ length: backupCodeCount }, () => {
    const raw = randomBytes(5).toString('hex');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const values = {
    totp_secret: encryptSecret(context, secret),
    enabled: 0,
    backup_codes: JSON.stringify(backupCodes.map(hashCode)),
    last_step: 0,
    created_at: nowSeconds(),
  };
  const db = context.database.db;
  if (existing) await db.updateTable('user_two_factors').set(values).where('user_id', '=', user.id).execute();
  else
    await db
      .insertInto('user_two_factors')
      .values({ user_id: user.id, ...values })
      .execute();
  return { secret, otpauth_url: totpFor(context, user.username, secret).toString(), backup_codes: backupCodes };
}

/**
 * Checks a TOTP code (or, with `allowBackup`, an unused backup code, which is then spent). The write that
 * records the step or spends the code is conditional on the row being unchanged, so two requests racing with
 * one code cannot both pass.
 */
async function checkCode(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'username'>,
  code: string,
  allowBackup: boolean,
): Promise<boolean> {
  if ((await failuresOf(context, user.id)) >= failureLimit) throw TwoFactorErrors.tooManyFailures();
  const passed = await matchCode(context, user, code, allowBackup);
  if (passed) await clearFailures(context, user.id);
  else await recordFailure(context, user.id);
  return passed;
}

async function matchCode(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'username'>,
  code: string,
  allowBackup: boolean,
): Promise<boolean> {
  const row = await readRow(context, user.id);
  if (!row?.totp_secret) return false;
  const db = context.database.db;
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    const totp = totpFor(context, user.username, decryptSecret(context, row.totp_secret));
    const delta = totp.validate({ token: digits, window: 1 });
    if (delta === null) return false;
    const step = totp.counter() + delta;
    if (step <= Number(row.last_step)) return false;
    const result = await db
      .updateTable('user_two_factors')
      .set({ last_step: step })
      .where('user_id', '=', user.id)
      .where('last_step', '=', row.last_step)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
  if (!allowBackup || !row.backup_codes) return false;
  const hashes = JSON.parse(row.backup_codes) as string[];
  const presented = Buffer.from(hashCode(code), 'hex');
  const index = hashes.findIndex((hash) => timingSafeEqual(Buffer.from(hash, 'hex'), presented));
  if (index < 0) return false;
  const remaining = JSON.stringify(hashes.filter((_, position) => position !== index));
  const result = await db
    .updateTable('user_two_factors')
    .set({ backup_codes: remaining })
    .where('user_id', '=', user.id)
    .where('backup_codes', '=', row.backup_codes)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Turns the second factor on once the authenticator shows it has the secret (a TOTP code, not a backup code). */
export async function enableTwoFactor(context: AppContext, user: UserRow, code: string): Promise<void> {
  const row = await readRow(context, user.id);
  if (!row) throw TwoFactorErrors.notSetUp();
  if (row.enabled) throw TwoFactorErrors.alreadyEnabled();
  if (!(await checkCode(context, user, code, false))) throw TwoFactorErrors.wrongCode();
  await context.database.db
    .updateTable('user_two_factors')
    .set({ enabled: 1 })
    .where('user_id', '=', user.id)
    .execute();
  await context.bus.publish(twoFactorTopic, user.id);
}

/** Turns the second factor off; needs a current code (TOTP or backup). */
export async function disableTwoFactor(context: AppContext, user: UserRow, code: string): Promise<void> {
  const row = await readRow(context, user.id);
  if (!row?.enabled) throw TwoFactorErrors.notEnabled();
  if (!(await checkCode(context, user, code, true))) throw TwoFactorErrors.wrongCode();
  await context.database.db.deleteFrom('user_two_factors').where('user_id', '=', user.id).execute();
  await context.bus.publish(twoFactorTopic, user.id);
}

/** A second factor of a user who has one on: a TOTP code or an unused backup code. */
export async function verifySecondFactor(
  context: AppContext,
  user: Pick<UserRow, 'id' | 'username'>,
  code: string,
): Promise<boolean> {
  if (!(await hasTwoFactor(context, user.id))) return false;
  return checkCode(context, user, code, true);
}

export interface TwoFactorStatus {
  enabled: boolean;
  backup_codes_left: number;
}

export async function twoFactorStatus(context: AppContext, userId: number): Promise<TwoFactorStatus> {
  const row = await readRow(context, userId);
  const enabled = Boolean(row?.enabled);
  return {
    enabled,
    backup_codes_left: enabled && row?.backup_codes ? (JSON.parse(row.backup_codes) as string[]).length : 0,
  };
}
