import { emailBindQuery, oauthCallbackQuery } from '@modelgate/wire';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { githubProvider } from '../../../domain/user/oauth/github.provider.js';
import { larkProvider } from '../../../domain/user/oauth/lark.provider.js';
import { bindProvider, requireProviderEnabled, signInWithProvider } from '../../../domain/user/oauth/oauth.service.js';
import type { OAuthProvider } from '../../../domain/user/oauth/oauth-provider.js';
import { oidcProvider } from '../../../domain/user/oauth/oidc.provider.js';
import { wechatProvider } from '../../../domain/user/oauth/wechat.provider.js';
import type { UserRow } from '../../../db/tables.js';
import { presentSignedInUser } from '../../../domain/user/user.presenter.js';
import { bindEmail } from '../../../domain/user/user.registration.js';
import { hasTwoFactor, TwoFactorErrors } from '../../../domain/user/user.two-factor.js';
import type { AppContext } from '../../../context.js';
import { nowSeconds } from '../../../lib/time.js';
import { randomAlphanumeric } from '../../../lib/random.js';
import { AppError } from '../../../lib/errors.js';
import { currentUser, identify } from '../../middleware/authenticate.js';
import { issueCsrfToken } from '../../middleware/csrf.js';
import { readSession, startUserSession, updateSession } from '../../middleware/session.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';

const stateMismatch = () =>
  new AppError('oauth_state_mismatch', { zh: 'state is empty or not same', en: 'state is empty or not same' }, 403);

/**
 * Checks the `state` query parameter against the session's one-time OAuth state (from `GET /api/oauth/state`)
 * and clears it, so it works once; a missing or different state is refused with 403.
 */
function consumeState(request: FastifyRequest, reply: FastifyReply) {
  const query = request.query as Record<string, unknown>;
  const expected = readSession(request).oauthState;
  if (!expected || typeof query.state !== 'string' || query.state !== expected) throw stateMismatch();
  // Cleared before anything else can fail.
  updateSession(request, reply, { oauthState: undefined });
}

/**
 * Starts a session for the user, as password sign-in does. A user with a second factor is held in the
 * session until POST /api/user/login brings the code (decision 0030).
 */
async function signIn(context: AppContext, request: FastifyRequest, reply: FastifyReply, user: UserRow) {
  if (await hasTwoFactor(context, user.id)) {
    updateSession(request, reply, { pendingUserId: user.id, pendingAt: nowSeconds() });
    throw TwoFactorErrors.required();
  }
  await startUserSession(context, request, reply, user);
  issueCsrfToken(request, reply);
  return ok(presentSignedInUser(user));
}

/** Third-party sign-in and binding: GitHub, Lark, OIDC and WeChat (all state-checked), and email binding. */
export const oauthRoutes: RouteModule = (app, { context, criticalLimit, requireUser }) => {
  app.get('/oauth/state', { onRequest: criticalLimit }, async (request, reply) => {
    const state = randomAlphanumeric(12);
    updateSession(request, reply, { oauthState: state });
    return ok(state);
  });

  const stateChecked = (provider: OAuthProvider) =>
    app.get(`/oauth/${provider.name}`, { onRequest: criticalLimit }, async (request, reply) => {
      consumeState(request, reply);
      const { code } = validate(oauthCallbackQuery, request.query);
      const signedIn = readSession(request).userId ? await identify(context, request, reply) : null;
      requireProviderEnabled(context, provider);
      const identity = await provider.identify(context, code);
      if (signedIn) {
        await bindProvider(context, signedIn, provider, identity);
        return ok(undefined, 'bind');
      }
      return signIn(context, request, reply, await signInWithProvider(context, provider, identity));
    });
  stateChecked(githubProvider);
  stateChecked(larkProvider);
  stateChecked(oidcProvider);

  // one-api took only the code here (no state): a cross-site link with the attacker's code could bind the
  // attacker's WeChat to a signed-in victim, or sign the victim in to the attacker's account. Both routes now
  // need the one-time state that only a page of our origin can read from /oauth/state (decision 0021).
  app.get('/oauth/wechat', { onRequest: criticalLimit }, async (request, reply) => {
    consumeState(request, reply);
    requireProviderEnabled(context, wechatProvider);
    const { code } = validate(oauthCallbackQuery, request.query);
    const identity = await wechatProvider.identify(context, code);
    return signIn(context, request, reply, await signInWithProvider(context, wechatProvider, identity));
  });

  app.get('/oauth/wechat/bind', { onRequest: criticalLimit, preHandler: requireUser }, async (request, reply) => {
    consumeState(request, reply);
    requireProviderEnabled(context, wechatProvider);
    const { code } = validate(oauthCallbackQuery, request.query);
    const identity = await wechatProvider.identify(context, code);
    await bindProvider(context, currentUser(request), wechatProvider, identity);
    return ok();
  });

  // With a cross-site link, an attacker's address (and its code) could be bound to a signed-in victim, then
  // used to reset the victim's password: checked as a write (a script's access token needs no header).
  app.get(
    '/oauth/email/bind',
    { onRequest: criticalLimit, preHandler: requireUser, config: { writesOnGet: true } },
    async (request) => {
      const { email, code } = validate(emailBindQuery, request.query);
      await bindEmail(context, currentUser(request), email, code);
      return ok();
    },
  );
};
