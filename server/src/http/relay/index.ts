import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { relayRuntime } from '../../relay/runtime.js';
import type { RateLimits } from '../middleware/rate-limit.js';
import { anthropicFrontRoutes } from './anthropic-front.routes.js';
import { relayCors } from './cors.js';
import { dashboardRoutes } from './dashboard.routes.js';
import { modelListRoutes } from './models.routes.js';
import { openAIErrorHandler } from './openai-error.js';
import { proxyRoutes } from './proxy.routes.js';
import { relayRoutes } from './relay.routes.js';

/**
 * The OpenAI-compatible relay under /v1 (and the legacy /dashboard billing answers), in a scope of its own:
 * CORS for any origin, gzip request bodies, bodies kept as bytes (so retries resend them unchanged), and
 * every error in OpenAI's shape. No rate limit on /v1, as in one-api.
 */
export async function registerRelay(app: FastifyInstance, context: AppContext, limits: RateLimits): Promise<void> {
  const runtime = relayRuntime(context);
  await runtime.router.reload();
  await app.register(async (scope) => {
    scope.setErrorHandler(openAIErrorHandler);
    scope.addHook('onRequest', relayCors);
    scope.addHook('preParsing', (request, _reply, payload, done) => {
      if (request.headers['content-encoding'] !== 'gzip') return done(null, payload);
      delete request.headers['content-length'];
      const gunzip = createGunzip();
      gunzip.on('error', () => {});
      done(null, payload.pipe(gunzip));
    });
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.options('/v1/*', async (_request, reply) => reply.status(204).send());
    scope.options('/dashboard/*', async (_request, reply) => reply.status(204).send());
    relayRoutes(scope, context, runtime);
    proxyRoutes(scope, context);
    anthropicFrontRoutes(scope, context, runtime);
    modelListRoutes(scope, context, runtime);
    dashboardRoutes(scope, context, limits.api);
  });
}
