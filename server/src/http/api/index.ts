import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { relayRuntime } from '../../relay/runtime.js';
import { Role } from '../../domain/user/user.constants.js';
import { authenticate } from '../middleware/authenticate.js';
import type { RateLimits } from '../middleware/rate-limit.js';
import { turnstileCheck } from '../middleware/turnstile.js';
import { auditRoutes } from './audit/audit.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { channelRoutes } from './channel/channel.routes.js';
import { logRoutes } from './log/log.routes.js';
import { modelPricingRoutes } from './model-pricing/model-pricing.routes.js';
import { modelsRoutes } from './models/models.routes.js';
import { oauthRoutes } from './oauth/oauth.routes.js';
import { openApiRoutes } from './openapi/openapi.routes.js';
import { optionRoutes } from './option/option.routes.js';
import { pricingRoutes } from './pricing/pricing.routes.js';
import { redemptionRoutes } from './redemption/redemption.routes.js';
import { serviceStatusRoutes } from './service-status/service-status.routes.js';
import type { RouteKit, RouteModule } from './route-kit.js';
import { statusRoutes } from './status/status.routes.js';
import { limitsUsageRoutes } from './token/limits-usage.routes.js';
import { tokenRoutes } from './token/token.routes.js';
import { userRoutes } from './user/user.routes.js';

// The audit trail first: its hooks record the admin writes of the modules after it.
const modules: RouteModule[] = [
  auditRoutes,
  statusRoutes,
  authRoutes,
  oauthRoutes,
  userRoutes,
  tokenRoutes,
  limitsUsageRoutes,
  redemptionRoutes,
  logRoutes,
  optionRoutes,
  channelRoutes,
  modelsRoutes,
  pricingRoutes,
  modelPricingRoutes,
  serviceStatusRoutes,
  openApiRoutes,
];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route reads nothing a relay charge writes (no balance, log or token), so it does not wait for the
     * pending charges: /api/status waited for a commit stuck behind a large delete's WAL for 100-220 ms.
     */
    readsNoCharges?: boolean;
  }
}

/**
 * The management API under /api: compression, the global API limit, then each resource's routes. The relay
 * answers before its charge is written; a read here first waits for the charges this node has pending, so
 * a balance or log read after an answer always includes it (routes flagged `readsNoCharges` do not wait).
 */
export async function registerApi(app: FastifyInstance, context: AppContext, limits: RateLimits): Promise<void> {
  await app.register(
    async (api) => {
      // Sessions and CSRF live here only: the relay never reads a cookie, so it does not parse them.
      await api.register(cookie, { secret: context.config.SESSION_SECRET, hook: 'onRequest' });
      await api.register(compress, { threshold: 1024 });
      api.addHook('onRequest', limits.api);
      const settlements = relayRuntime(context).settlements;
      api.addHook('onRequest', async (request) => {
        if (settlements.busy && !request.routeOptions.config.readsNoCharges) await settlements.settled();
      });
      const kit: RouteKit = {
        context,
        requireUser: authenticate(context, Role.Common),
        requireAdmin: authenticate(context, Role.Admin),
        requireRoot: authenticate(context, Role.Root),
        criticalLimit: limits.critical,
        turnstile: turnstileCheck(context),
        limits,
      };
      for (const module of modules) await module(api, kit);
    },
    { prefix: '/api' },
  );
}
