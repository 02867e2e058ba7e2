import type { AppContext } from '../../context.js';
import type { TokenRow } from '../../db/tables.js';
import { generateTokenKey } from '../../lib/random.js';
import { nowSeconds } from '../../lib/time.js';
import { checkLimitChanges, limitFieldsOf, pickLimitChanges, type LimitFields } from '../limits/limit-fields.js';
import { findUserById, lockUser } from '../user/user.repository.js';
import { invalidateToken } from './token.cache.js';
import { maxTokenNameBytes, maxTokensPerUser, NeverExpires, TokenStatus } from './token.constants.js';
import {
  expiryInPast,
  invalidSubnet,
  negativeRemainQuota,
  tokenExhaustedCannotEnable,
  tokenExpiredCannotEnable,
  tokenNameTooLong,
  tokenNotFound,
  tooManyTokens,
} from './token.errors.js';
import {
  countTokensOfUser,
  deleteTokenOfUser,
  findTokenOfUser,
  insertToken,
  updateTokenOfUser,
  type TokenChanges,
} from './token.repository.js';
import { findInvalidSubnet, splitSubnets } from './token.subnet.js';

/** The editable fields of a token, as the console sends them. */
export interface TokenFields {
  name: string;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  models: string | null;
  subnet: string | null;
}

/** Limits and budget (issue 31): optional on both creation and update, an omitted one keeps its value. */
type TokenLimitFields = Partial<LimitFields>;

/** The token's limits checked against what it has and its owner's (a token stays within its user's). */
async function limitChanges(
  context: AppContext,
  userId: number,
  fields: TokenLimitFields,
  stored?: TokenRow,
): Promise<Partial<LimitFields>> {
  const changes = pickLimitChanges(fields);
  if (Object.keys(changes).length === 0) return changes;
  const owner = await findUserById(context.database.db, userId);
  return checkLimitChanges(changes, stored && limitFieldsOf(stored), owner && limitFieldsOf(owner));
}

/** A model allow-list with blanks and repeats removed: `"a, b,,a"` → `"a,b"`. */
export const normalizeModels = (models: string | null): string =>
  [
    ...new Set(
      (models ?? '')
        .split(',')
        .map((model) => model.trim())
        .filter(Boolean),
    ),
  ].join(',');

/**
 * Checks and tidies the fields given; omitted ones stay omitted. `storedUnlimited` is the token's current
 * flag (false for a new token). A negative remaining quota is kept when it only says what the edit page
 * loaded (`relativeQuota`: a token already spent below zero).
 */
function checkFields(fields: Partial<TokenFields>, storedUnlimited = false, relativeQuota = false): TokenChanges {
  const changes: TokenChanges = {};
  if (fields.remain_quota !== undefined && fields.remain_quota < 0 && !relativeQuota) {
    // An unlimited token's remaining quota is never read, and one-api gives default tokens -1: the console
    // sends that back on every edit, so it is ignored rather than refused.
    if (!(fields.unlimited_quota ?? storedUnlimited)) throw negativeRemainQuota();
    fields = { ...fields, remain_quota: undefined };
  }
  if (fields.name !== undefined) {
    if (Buffer.byteLength(fields.name, 'utf8') > maxTokenNameBytes) throw tokenNameTooLong();
    changes.name = fields.name;
  }
  if (fields.subnet !== undefined) {
    const invalid = findInvalidSubnet(fields.subnet ?? '');
    if (invalid !== null) throw invalidSubnet(invalid);
    changes.subnet = splitSubnets(fields.subnet).join(',');
  }
  if (fields.models !== undefined) changes.models = normalizeModels(fields.models);
  // one-api's insert turned 0 into "never" (a column default); we do the same on every write rather than
  // letting a forgotten field expire the token.
  if (fields.expired_time !== undefined)
    changes.expired_time = fields.expired_time === 0 ? NeverExpires : fields.expired_time;
  if (fields.remain_quota !== undefined) changes.remain_quota = fields.remain_quota;
  // Written as 0/1: SQLite cannot bind booleans, and PostgreSQL reads '1'/'0' as boolean input.
  if (fields.unlimited_quota !== undefined) changes.unlimited_quota = fields.unlimited_quota ? 1 : 0;
  return changes;
}

async function findOwnTokenOrThrow(context: AppContext, userId: number, id: number): Promise<TokenRow> {
  const token = await findTokenOfUser(context.database.db, userId, id);
  if (!token) throw tokenNotFound();
  return token;
}

/** Creates a token for the user with a fresh key; answers the stored row. */
export async function createToken(
  context: AppContext,
  userId: number,
  fields: TokenFields & TokenLimitFields,
): Promise<TokenRow> {
  const changes = checkFields(fields);
  const limits = await limitChanges(context, userId, fields);
  const expiredTime = changes.expired_time ?? NeverExpires;
  if (expiredTime !== NeverExpires && expiredTime <= nowSeconds()) throw expiryInPast();
  const { db, dialect } = context.database;
  const now = nowSeconds();
  const key = generateTokenKey();
  const id = await db.transaction().execute(async (transaction) => {
    // Counted with the owner's row held: concurrent creations cannot all pass the cap.
    await lockUser(transaction, dialect, userId);
    if ((await countTokensOfUser(transaction, userId)) >= maxTokensPerUser) throw tooManyTokens();
    return insertToken(transaction, {
      user_id: userId,
      key,
      status: TokenStatus.Enabled,
      name: changes.name ?? '',
      created_time: now,
      accessed_time: now,
      expired_time: expiredTime,
      remain_quota: changes.remain_quota ?? 0,
      unlimited_quota: changes.unlimited_quota ?? 0,
      used_quota: 0,
      models: changes.models ?? '',
      subnet: changes.subnet ?? '',
      ...limits,
    });
  });
  // A lookup of this key before it existed may have cached "no such token".
  await invalidateToken(context, { key });
  return findOwnTokenOrThrow(context, userId, id);
}

/**
 * Rewrites the fields given (name, expiry, quota, unlimited flag, models, subnet) of the user's token.
 * Omitted fields keep their value, fixing one-api's zero-value overwrite; the status is never touched here.
 * With `original_remain_quota` (what the edit page loaded) the remaining quota moves by what was typed, in
 * the same statement, so charges made since the page loaded are kept; without, it is overwritten.
 */
export async function updateToken(
  context: AppContext,
  userId: number,
  id: number,
  fields: Partial<TokenFields> & TokenLimitFields & { original_remain_quota?: number },
): Promise<TokenRow> {
  const token = await findOwnTokenOrThrow(context, userId, id);
  const { original_remain_quota: loaded, ...edited } = fields;
  const changes = {
    ...checkFields(edited, Boolean(token.unlimited_quota), loaded !== undefined),
    ...(await limitChanges(context, userId, edited, token)),
  };
  const { remain_quota: typed, ...others } = changes;
  const written =
    typed !== undefined && loaded !== undefined
      ? await updateTokenOfUser(context.database.db, userId, id, others, typed - loaded)
      : await updateTokenOfUser(context.database.db, userId, id, changes);
  if (!written) throw tokenNotFound();
  await invalidateToken(context, token);
  return findOwnTokenOrThrow(context, userId, id);
}

/**
 * Enables or disables the user's token. Enabling is refused while the token is expired or, for a limited
 * token, has nothing left: the relay would refuse it anyway, so the user is told what to change instead.
 */
export async function setTokenStatus(
  context: AppContext,
  userId: number,
  id: number,
  status: number,
): Promise<TokenRow> {
  const token = await findOwnTokenOrThrow(context, userId, id);
  if (status === TokenStatus.Enabled) {
    const expiredTime = Number(token.expired_time);
    if (expiredTime !== NeverExpires && expiredTime <= nowSeconds()) throw tokenExpiredCannotEnable();
    if (!token.unlimited_quota && Number(token.remain_quota) <= 0) throw tokenExhaustedCannotEnable();
  }
  if (!(await updateTokenOfUser(context.database.db, userId, id, { status }))) throw tokenNotFound();
  await invalidateToken(context, token);
  return findOwnTokenOrThrow(context, userId, id);
}

/** Deletes the user's token for good. */
export async function deleteToken(context: AppContext, userId: number, id: number): Promise<void> {
  const token = await findOwnTokenOrThrow(context, userId, id);
  if (!(await deleteTokenOfUser(context.database.db, userId, id))) throw tokenNotFound();
  await invalidateToken(context, token);
}
