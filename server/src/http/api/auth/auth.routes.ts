import { presentSignedInUser } from '../../../domain/user/user.presenter.js';
import { verifyPassword } from '../../../domain/user/user.auth.js';
import { AppError } from '../../../lib/errors.js';
import { issueCsrfToken } from '../../middleware/csrf.js';
import { clearSession, writeSession } from '../../middleware/session.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';
import { loginBody } from './auth.schema.js';

/** Password sign-in and sign-out. */
export const authRoutes: RouteModule = (app, { context, criticalLimit }) => {
  app.post('/user/login', { onRequest: criticalLimit }, async (request, reply) => {
    if (!context.options.bool('PasswordLoginEnabled'))
      throw new AppError('password_login_disabled', { zh: '管理员关闭了密码登录', en: 'Password sign-in is disabled by the administrator' });
    const { username, password } = validate(loginBody, request.body);
    const user = await verifyPassword(context.database.db, username, password);
    writeSession(request, reply, { userId: user.id });
    issueCsrfToken(request, reply);
    return ok(presentSignedInUser(user));
  });

  app.get('/user/logout', async (request, reply) => {
    clearSession(request, reply);
    reply.clearCookie('XSRF-TOKEN', { path: '/' });
    return ok();
  });
};
