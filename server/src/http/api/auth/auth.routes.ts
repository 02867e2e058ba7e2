import { emailQuery, loginBody, registerBody, resetPasswordBody } from '@modelgate/wire';
import { z } from 'zod';
import { getCachedUser } from '../../../domain/user/user.cache.js';
import { UserStatus } from '../../../domain/user/user.constants.js';
import { verifyPassword } from '../../../domain/user/user.auth.js';
import { presentSignedInUser } from '../../../domain/user/user.presenter.js';
import {
  registerWithPassword,
  resetPassword,
  sendPasswordReset,
  sendVerificationCode,
} from '../../../domain/user/user.registration.js';
import { endSession } from '../../../domain/user/user.sessions.js';
import { hasTwoFactor, TwoFactorErrors, verifySecondFactor } from '../../../domain/user/user.two-factor.js';
import { AppError } from '../../../lib/errors.js';
import { nowSeconds } from '../../../lib/time.js';
import { issueCsrfToken } from '../../middleware/csrf.js';
import { clearSession, readSession, startUserSession } from '../../middleware/session.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

/** The second factor sent with a sign-in: a TOTP code or a backup code (decision 0030). */
const secondFactorBody = z.object({ totp_code: z.string().trim().max(64).optional() });
/** How long a third-party sign-in waits for the second factor. */
const pendingSeconds = 5 * 60;

/** Password sign-in and sign-out, sign-up, email verification codes and password reset. */
export const authRoutes: RouteModule = (app, { context, criticalLimit, turnstile }) => {
  app.post('/user/login', { onRequest: criticalLimit }, async (request, reply) => {
    const { totp_code: code } = validate(secondFactorBody, request.body);
    // A third-party sign-in of a user with a second factor waits in the session for the code alone.
    const body = request.body as Record<string, unknown> | null;
    const { pendingUserId, pendingAt } = readSession(request);
    if (code && pendingUserId && body?.username === undefined && body?.password === undefined) {
      const user = await getCachedUser(context, pendingUserId);
      if (!user || user.status !== UserStatus.Enabled || nowSeconds() - (pendingAt ?? 0) > pendingSeconds)
        throw TwoFactorErrors.wrongCode();
      if (!(await verifySecondFactor(context, user, code))) throw TwoFactorErrors.wrongCode();
      await startUserSession(context, request, reply, user);
      issueCsrfToken(request, reply);
      return ok(presentSignedInUser(user));
    }
    if (!context.options.bool('PasswordLoginEnabled'))
      throw new AppError('password_login_disabled', {
        zh: '管理员关闭了密码登录',
        en: 'Password sign-in is disabled by the administrator',
      });
    const { username, password } = validate(loginBody, request.body);
    const user = await verifyPassword(context.database.db, username, password);
    if (await hasTwoFactor(context, user.id)) {
      if (!code) throw TwoFactorErrors.required();
      if (!(await verifySecondFactor(context, user, code))) throw TwoFactorErrors.wrongCode();
    }
    await startUserSession(context, request, reply, user);
    issueCsrfToken(request, reply);
    return ok(presentSignedInUser(user));
  });

  // Ends this session on the server too: a copy of the cookie stops working, the user's other sessions go
  // on (decision 0002).
  app.get('/user/logout', async (request, reply) => {
    const { sid } = readSession(request);
    if (sid) await endSession(context, sid);
    clearSession(request, reply);
    reply.clearCookie('XSRF-TOKEN', { path: '/' });
    return ok();
  });

  app.post('/user/register', { onRequest: criticalLimit, preHandler: turnstile }, async (request) => {
    const body = validate(registerBody, request.body);
    await registerWithPassword(context, {
      username: body.username,
      password: body.password,
      email: body.email,
      verificationCode: body.verification_code,
      affCode: body.aff_code,
    });
    return ok();
  });

  app.get('/verification', { onRequest: criticalLimit, preHandler: turnstile }, async (request) => {
    const { email } = validate(emailQuery, request.query);
    await sendVerificationCode(context, email);
    return ok();
  });

  app.get('/reset_password', { onRequest: criticalLimit, preHandler: turnstile }, async (request) => {
    const { email } = validate(emailQuery, request.query);
    await sendPasswordReset(context, email);
    return ok();
  });

  app.post('/user/reset', { onRequest: criticalLimit }, async (request) => {
    const { email, token } = validate(resetPasswordBody, request.body);
    return ok(await resetPassword(context, email, token));
  });
};
