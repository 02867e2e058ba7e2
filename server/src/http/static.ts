import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { RateLimits } from './middleware/rate-limit.js';

/**
 * Serves the built console from WEB_DIST: hashed assets cached for a week, index.html never cached, and
 * every other non-API path answered with index.html so the console's history routing works.
 */
export async function registerConsole(app: FastifyInstance, context: AppContext, limits: RateLimits): Promise<void> {
  const root = context.config.WEB_DIST;
  const indexFile = join(root, 'index.html');
  // Read once: the fallback answers every console path, and the built file does not change while we run.
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile) : null;
  if (indexHtml) {
    await app.register(async (scope) => {
      scope.addHook('onRequest', limits.web);
      await scope.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders: (response, path) => {
          response.header('Cache-Control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=604800, immutable');
        },
      });
    });
  }

  app.setNotFoundHandler({ preHandler: limits.web }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/v1' || path.startsWith('/v1/') || path.startsWith('/dashboard/')) {
      return reply.status(404).send({
        error: {
          message: `Invalid URL (${request.method} ${path})`,
          type: 'invalid_request_error',
          param: '',
          code: '',
        },
      });
    }
    if (path === '/api' || path.startsWith('/api/')) {
      return reply.status(404).send({ success: false, message: `Invalid URL (${request.method} ${path})` });
    }
    if (context.config.FRONTEND_BASE_URL && !context.config.isMaster) {
      return reply.redirect(context.config.FRONTEND_BASE_URL + request.url, 301);
    }
    if (!indexHtml || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).type('text/plain').send('Not found: the console is not built (npm run build -w web)');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
