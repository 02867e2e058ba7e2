import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppContext } from './context.js';
import { registerApi } from './http/api/index.js';
import { apiErrorHandler } from './http/error-handler.js';
import { registerRateLimits } from './http/middleware/rate-limit.js';
import { registerRelay } from './http/relay/index.js';
import { registerConsole } from './http/static.js';
import { newRequestId } from './lib/request-id.js';

/** Builds the whole HTTP application (console, /api, /v1) without listening: tests and main.ts share it. */
export async function buildApp(context: AppContext): Promise<FastifyInstance> {
  const trustProxy = context.config.TRUSTED_PROXIES.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const app = Fastify({
    loggerInstance: context.logger as FastifyBaseLogger,
    // Per-request lines only at debug level: at relay rates they would cost more than the relay itself.
    logController: new LogController({
      disableRequestLogging: context.config.LOG_LEVEL !== 'debug' && context.config.LOG_LEVEL !== 'trace',
    }),
    trustProxy: trustProxy.length > 0 ? trustProxy : false,
    genReqId: () => newRequestId(),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
  });

  // Callback-style hooks on every request: an async one costs a promise and a microtask hop per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Oneapi-Request-Id', request.id);
    done();
  });
  app.setErrorHandler(apiErrorHandler);

  const limits = await registerRateLimits(app, context);
  await registerApi(app, context, limits);
  await registerRelay(app, context, limits);
  await registerConsole(app, context, limits);
  return app;
}
