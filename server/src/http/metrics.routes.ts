import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { enableMetrics } from '../metrics/metrics-registry.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics in Prometheus's text format, outside /api and /v1: no session, CSRF or rate limit, only
 * `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN it answers 404 and nothing is counted.
 */
export async function registerMetricsRoute(app: FastifyInstance, context: AppContext): Promise<void> {
  const token = context.config.METRICS_TOKEN;
  const metrics = token ? await enableMetrics(context) : undefined;
  // Compared as digests: equal lengths for timingSafeEqual, and no timing hint of the token's length.
  const expected = digest(`Bearer ${token}`);
  app.get('/metrics', async (request, reply) => {
    if (!metrics) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    const given = request.headers.authorization ?? '';
    if (!timingSafeEqual(digest(given), expected)) {
      return reply
        .status(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('Unauthorized');
    }
    const body = await metrics.registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
