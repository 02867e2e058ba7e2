import { reauthBody, sessionParams, twoFactorCodeBody } from '@modelgate/wire';
import bcrypt from 'bcryptjs';
import { listSessions, revokeOtherSessions, revokeSession } from '../../../domain/user/user.sessions.js';
import {
  disableTwoFactor,
  enableTwoFactor,
  hasTwoFactor,
  setUpTwoFactor,
  twoFactorStatus,
  verifySecondFactor,
} from '../../../domain/user/user.two-factor.js';
import { AppError } from '../../../lib/errors.js';
import { nowSeconds } from '../../../lib/time.js';
import { currentUser } from '../../middleware/authenticate.js';
import { readSession, updateSession } from '../../middleware/session.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

const reauthFailed = () => new AppError('reauth_failed', { zh: '密码或验证码错误', en: 'Wrong password or code' });

/**
 * The signed-in user's sessions (decision 0002), second factor (decision 0030) and re-authentication.
 * Every route that checks a password or a code takes the critical per-IP limit, as sign-in does.
 */
export const userSecurityRoutes: RouteModule = (app, { context, requireUser, criticalLimit }) => {
  app.get('/user/sessions', { preHandler: requireUser }, async (request) => {
    const current = request.authMethod === 'session' ? readSession(request).sid : undefined;
    return ok(await listSessions(context, currentUser(request), current));
  });

  app.delete('/user/sessions/:id', { preHandler: requireUser }, async (request) => {
    const { id } = validate(sessionParams, request.params);
    await revokeSession(context, currentUser(request).id, id);
    return ok();
  });

  const signOutOthers = async (request: Parameters<typeof currentUser>[0]) => {
    const keep = request.authMethod === 'session' ? readSession(request).sid : undefined;
    return ok({ ended: await revokeOtherSessions(context, currentUser(request), keep) });
  };
  app.delete('/user/sessions', { preHandler: requireUser }, signOutOthers);
  app.post('/user/sessions/logout_others', { preHandler: requireUser }, signOutOthers);

  app.get('/user/2fa', { preHandler: requireUser }, async (request) =>
    ok(await twoFactorStatus(context, currentUser(request).id)),
  );

  app.post('/user/2fa/setup', { preHandler: requireUser }, async (request) =>
    ok(await setUpTwoFactor(context, currentUser(request))),
  );

  app.post('/user/2fa/enable', { onRequest: criticalLimit, preHandler: requireUser }, async (request) => {
    const { code } = validate(twoFactorCodeBody, request.body);
    await enableTwoFactor(context, currentUser(request), code);
    return ok();
  });

  app.post('/user/2fa/disable', { onRequest: criticalLimit, preHandler: requireUser }, async (request) => {
    const { code } = validate(twoFactorCodeBody, request.body);
    await disableTwoFactor(context, currentUser(request), code);
    return ok();
  });

  // Proves again who is behind this session: the guarded routes (prices) accept it for five minutes.
  app.post('/user/reauth', { onRequest: criticalLimit, preHandler: requireUser }, async (request, reply) => {
    const { password, totp_code: code } = validate(reauthBody, request.body);
    const user = currentUser(request);
    const passed = code
      ? await verifySecondFactor(context, user, code)
      : Boolean(password && user.password && (await bcrypt.compare(password, user.password)));
    if (!passed) throw reauthFailed();
    if (request.authMethod === 'session') updateSession(request, reply, { authAt: nowSeconds() });
    return ok({ two_factor: await hasTwoFactor(context, user.id) });
  });
};
