import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/tables.js';
import { Role, UserStatus } from '../../domain/user/user.constants.js';
import { getCachedUser, getUserByAccessToken } from '../../domain/user/user.cache.js';
import { isSessionLive } from '../../domain/user/user.sessions.js';
import { hasSecondFactor } from '../../domain/user/passkey.js';
import { nowSeconds } from '../../lib/time.js';
import { AppError } from '../../lib/errors.js';
import { verifyCsrf } from './csrf.js';
import { clearSession, readSession } from './session.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, read fresh (through the cache) on this request. Set by `authenticate`. */
    user?: UserRow;
    authMethod?: 'session' | 'access_token';
  }
}

const notLoggedIn = () =>
  new AppError(
    'not_logged_in',
    { zh: '无权进行此操作，未登录且未提供 access token', en: 'Not signed in and no access token provided' },
    401,
  );
const accessTokenInvalid = () =>
  new AppError('access_token_invalid', { zh: '无权进行此操作，access token 无效', en: 'Invalid access token' });
export const userBanned = () => new AppError('user_banned', { zh: '用户已被封禁', en: 'This user is banned' });
const permissionDenied = () =>
  new AppError('permission_denied', { zh: '无权进行此操作，权限不足', en: 'Permission denied' });

const secondFactorNeeded = () =>
  new AppError(
    'admin_2fa_required',
    {
      zh: '管理员必须先启用两步验证：请在个人设置中设置',
      en: 'Administrators must turn on two-factor authentication first: set it up in your personal settings',
    },
    200,
    { require_2fa_setup: true },
  );
const reauthNeeded = () =>
  new AppError(
    'reauth_required',
    {
      zh: '此操作需要再次验证身份：请输入密码、两步验证码或使用通行密钥',
      en: 'This action needs you to confirm who you are: enter your password or a two-factor code, or use a passkey',
    },
    200,
    { require_reauth: true },
  );

/** How long a sign-in or a re-authentication lets a session show secrets and change prices (decision 0030). */
export const reauthWindowSeconds = 5 * 60;

function accessTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  return header.replace(/^Bearer\s+/i, '').trim() || undefined;
}

/** The user behind the request's session or access token, or null when it carries neither. */
export async function identify(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<UserRow | null> {
  const session = readSession(request);
  if (session.userId) {
    const user = await getCachedUser(context, session.userId);
    if (!user || user.status !== UserStatus.Enabled) {
      clearSession(request, reply);
      throw userBanned();
    }
    // A session signed out or revoked, or from before a password change, ban or role change, has ended
    // (decision 0002): it is dropped and the request counts as carrying no session. A cookie from before
    // session rows (no sid) has ended too.
    if (
      session.sid &&
      (session.generation ?? 0) === (user.session_generation ?? 0) &&
      (await isSessionLive(context, session.sid, user.id))
    ) {
      request.authMethod = 'session';
      return user;
    }
    clearSession(request, reply);
  }
  const accessToken = accessTokenOf(request);
  if (!accessToken) return null;
  const user = await getUserByAccessToken(context, accessToken);
  if (!user) throw accessTokenInvalid();
  if (user.status !== UserStatus.Enabled) throw userBanned();
  request.authMethod = 'access_token';
  return user;
}

/**
 * A pre-handler that admits users of at least `minimumRole`. Role and status come from the user row on
 * every request, so a ban or demotion takes effect on the very next call, sessions included.
 */
export function authenticate(context: AppContext, minimumRole: number): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    const user = await identify(context, request, reply);
    if (!user) throw notLoggedIn();
    if (user.role < minimumRole) throw permissionDenied();
    if (request.authMethod === 'session') verifyCsrf(request, reply);
    // AdminRequire2FA: an administrator without a second factor reaches their own account (to set one up)
    // and nothing an administrator may do.
    if (
      minimumRole >= Role.Admin &&
      context.options.bool('AdminRequire2FA') &&
      !(await hasSecondFactor(context, user.id))
    )
      throw secondFactorNeeded();
    request.user = user;
  };
}

/**
 * After `authenticate`: a session must have proved who it is (sign-in, POST /api/user/reauth) within the
 * last five minutes. Access tokens are credentials of their own and pass. For a route that guards only some
 * of its writes (PUT /api/option/ for the price options); `requireRecentAuth` guards a whole route.
 */
export function assertRecentAuth(request: FastifyRequest): void {
  if (request.authMethod !== 'session') return;
  const { authAt } = readSession(request);
  if (!authAt || nowSeconds() - authAt > reauthWindowSeconds) throw reauthNeeded();
}

export const requireRecentAuth: preHandlerAsyncHookHandler = async (request) => assertRecentAuth(request);

/** The signed-in user; only for handlers behind `authenticate`. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw notLoggedIn();
  return request.user;
}
