import { identify } from '../../middleware/authenticate.js';
import { ok } from '../../reply.js';
import type { RouteModule } from '../route-kit.js';
import { modelPricingOf } from './model-pricing.js';

/** The group a visitor would join: one-api's default for new users. */
const visitorGroup = 'default';

/**
 * GET /api/pricing (public, as the model list of /about is): the models the caller's group can call and the
 * price each costs them; a visitor sees the default group's, which is where a new account starts.
 */
export const modelPricingRoutes: RouteModule = (app, { context }) => {
  app.get('/pricing', async (request, reply) => {
    const user = await identify(context, request, reply);
    return ok(modelPricingOf(context, user?.group ?? visitorGroup));
  });
};
