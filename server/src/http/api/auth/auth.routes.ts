import { emailQuery, loginBody, registerBody, resetPasswordBody } from '@modelgate/wire';
import { verifyPassword } from '../../../domain/user/user.auth.js';
import { presentSignedInUser } from '../../../domain/user/user.presenter.js';
import {
  registerWithPassword,
  resetPassword,
  sendPasswordReset,
  sendVerificationCode,
} from '../../../domain/user/user.registration.js';
import { signOutEverywhere } from '../../../domain/user/user.sessions.js';
import { AppError } from '../../../lib/errors.js';
import { issueCsrfToken } from '../../middleware/csrf.js';
import { clearSession, readSession, startUserSession } from '../../middleware/session.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

/** Password sign-in and sign-out, sign-up, email verification codes and password reset. */
export const authRoutes: RouteModule = (app, { context, criticalLimit, turnstile }) => {
  app.post('/user/login', { onRequest: criticalLimit }, async (request, reply) => {
    if (!context.options.bool('PasswordLoginEnabled'))
      throw new AppError('password_login_disabled', {
        zh: '管理员关闭了密码登录',
        en: 'Password sign-in is disabled by the administrator',
      });
    const { username, password } = validate(loginBody, request.body);
    const user = await verifyPassword(context.database.db, username, password);
    startUserSession(request, reply, user);
    issueCsrfToken(request, reply);
    return ok(presentSignedInUser(user));
  });

  // Ends the session on the server too: a copy of the cookie stops working (decision 0002).
  app.get('/user/logout', async (request, reply) => {
    const { userId, generation } = readSession(request);
    if (userId) await signOutEverywhere(context, userId, generation ?? 0);
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
