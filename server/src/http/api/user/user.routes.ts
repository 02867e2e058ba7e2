import { updateSelfBody } from '@modelgate/wire';
import { UserErrors } from '../../../domain/user/user.errors.js';
import { userDashboard } from '../../../domain/user/user.dashboard.js';
import { presentUser } from '../../../domain/user/user.presenter.js';
import {
  deleteSelf,
  ensureAffCode,
  readSelf,
  regenerateAccessToken,
  updateSelf,
} from '../../../domain/user/user.self.js';
import { currentUser, requireRecentAuth } from '../../middleware/authenticate.js';
import { clearSession, renewUserSession } from '../../middleware/session.js';
import { ok } from '../../reply.js';
import { validate } from '../../validate.js';
import type { RouteModule } from '../route-kit.js';
import { userAdminRoutes } from './user-admin.routes.js';
import { userSecurityRoutes } from './user-security.routes.js';

/** The signed-in user's own account, then the administration of users. */
export const userRoutes: RouteModule = async (app, kit) => {
  const { context, requireUser } = kit;

  app.get('/user/self', { preHandler: requireUser }, async (request) =>
    ok(presentUser(await readSelf(context, currentUser(request)))),
  );

  app.put('/user/self', { preHandler: requireUser }, async (request, reply) => {
    const renewed = await updateSelf(context, currentUser(request), validate(updateSelfBody, request.body));
    // A new password ended every session of the user but the one that set it.
    if (renewed && request.authMethod === 'session') await renewUserSession(context, request, reply, renewed);
    return ok();
  });

  app.delete('/user/self', { preHandler: requireUser }, async (request, reply) => {
    await deleteSelf(context, currentUser(request));
    clearSession(request, reply);
    return ok();
  });

  // A GET that replaces the access token (one-api's shape): a cross-site link must not break a user's scripts.
  // A new token is a credential for every route: a session asks for a recent sign-in (decision 0030).
  app.get(
    '/user/token',
    { preHandler: [requireUser, requireRecentAuth], config: { writesOnGet: true } },
    async (request) => ok(await regenerateAccessToken(context, currentUser(request))),
  );

  app.get('/user/aff', { preHandler: requireUser }, async (request) =>
    ok(await ensureAffCode(context, currentUser(request))),
  );

  app.get('/user/dashboard', { preHandler: requireUser }, async (request) => {
    try {
      return ok(await userDashboard(context, currentUser(request).id));
    } catch (error) {
      request.log.error({ err: error }, 'dashboard query failed');
      throw UserErrors.statsFailed();
    }
  });

  await userSecurityRoutes(app, kit);
  await userAdminRoutes(app, kit);
};
