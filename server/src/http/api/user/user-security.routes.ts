import {
  passkeyLoginBody,
  passkeyParams,
  passkeyRegisterBody,
  reauthBody,
  sessionParams,
  twoFactorCodeBody,
} from '@modelgate/wire';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import bcrypt from 'bcryptjs';
import {
  deletePasskey,
  listPasskeys,
  loginOptions,
  reauthOptions,
  registerPasskey,
  registrationOptions,
  relyingParty,
  verifyPasskeyLogin,
  verifyPasskeyReauth,
} from '../../../domain/user/passkey.js';
import { presentSignedInUser } from '../../../domain/user/user.presenter.js';
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
import { currentUser, requireRecentAuth } from '../../middleware/authenticate.js';
import { issueCsrfToken } from '../../middleware/csrf.js';
import { readSession, startUserSession, updateSession } from '../../middleware/session.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

/** The relying party of this request (ServerAddress, or the request's own loopback Host: see relyingParty). */
const partyOf = (context: Parameters<RouteModule>[1]['context'], request: FastifyRequest) =>
  relyingParty(context, { protocol: request.protocol, host: request.headers.host ?? '' });

/** The ceremony's challenge waiting in the session, cleared before anything can fail: it is answered once. */
function takePendingChallenge(request: FastifyRequest, reply: FastifyReply) {
  const pending = readSession(request).passkeyChallenge;
  updateSession(request, reply, { passkeyChallenge: undefined });
  return pending;
}

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

  // Proves again who is behind this session: the guarded routes (prices, the access token) accept it for five
  // minutes. The password, a TOTP or backup code, or an answer of one of the user's passkeys to the options of
  // POST /api/user/passkey/reauth/options.
  app.post('/user/reauth', { onRequest: criticalLimit, preHandler: requireUser }, async (request, reply) => {
    const { password, totp_code: code, passkey } = validate(reauthBody, request.body);
    const user = currentUser(request);
    if (passkey) {
      const pending = takePendingChallenge(request, reply);
      const response = passkey as unknown as AuthenticationResponseJSON;
      await verifyPasskeyReauth(context, user, partyOf(context, request), pending, response);
    } else {
      const passed = code
        ? await verifySecondFactor(context, user, code)
        : Boolean(password && user.password && (await bcrypt.compare(password, user.password)));
      if (!passed) throw reauthFailed();
    }
    if (request.authMethod === 'session') updateSession(request, reply, { authAt: nowSeconds() });
    return ok({ two_factor: await hasTwoFactor(context, user.id) });
  });

  // Passkeys (decision 0030): each ceremony's challenge waits in the session and is answered once.
  app.get('/user/passkeys', { preHandler: requireUser }, async (request) =>
    ok(await listPasskeys(context, currentUser(request).id)),
  );

  app.post('/user/passkey/register/options', { preHandler: requireUser }, async (request, reply) => {
    const { options, pending } = await registrationOptions(context, currentUser(request), partyOf(context, request));
    updateSession(request, reply, { passkeyChallenge: pending });
    return ok(options);
  });

  app.post('/user/passkey/register', { onRequest: criticalLimit, preHandler: requireUser }, async (request, reply) => {
    const { response, name } = validate(passkeyRegisterBody, request.body);
    const pending = takePendingChallenge(request, reply);
    const party = partyOf(context, request);
    const user = currentUser(request);
    return ok(
      await registerPasskey(context, user, party, pending, response as unknown as RegistrationResponseJSON, name ?? ''),
    );
  });

  // Options to confirm the signed-in user with one of their passkeys; the answer goes to POST /api/user/reauth.
  app.post('/user/passkey/reauth/options', { preHandler: requireUser }, async (request, reply) => {
    const { options, pending } = await reauthOptions(context, currentUser(request), partyOf(context, request));
    updateSession(request, reply, { passkeyChallenge: pending });
    return ok(options);
  });

  // Removing a sign-in method asks for the password or a code again after five minutes, as price writes do.
  app.delete('/user/passkeys/:id', { preHandler: [requireUser, requireRecentAuth] }, async (request) => {
    const { id } = validate(passkeyParams, request.params);
    await deletePasskey(context, currentUser(request).id, id);
    return ok();
  });

  // Cheap and stateless on the server (the challenge rides in the cookie): only the answer takes the sign-in limit.
  app.post('/user/passkey/login/options', async (request, reply) => {
    const { options, pending } = await loginOptions(partyOf(context, request));
    updateSession(request, reply, { passkeyChallenge: pending });
    return ok(options);
  });

  // A passkey verifies its user on the authenticator: it signs in without the TOTP code (decision 0030).
  app.post('/user/passkey/login', { onRequest: criticalLimit }, async (request, reply) => {
    const { response } = validate(passkeyLoginBody, request.body);
    const pending = takePendingChallenge(request, reply);
    const user = await verifyPasskeyLogin(
      context,
      partyOf(context, request),
      pending,
      response as unknown as AuthenticationResponseJSON,
    );
    await startUserSession(context, request, reply, user);
    issueCsrfToken(request, reply);
    return ok(presentSignedInUser(user));
  });
};
