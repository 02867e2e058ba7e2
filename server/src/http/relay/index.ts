import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { priceBook } from '../../domain/pricing/price-book.js';
import { newRequestId } from '../../lib/request-id.js';
import { relayRuntime } from '../../relay/runtime.js';
import type { RateLimits } from '../middleware/rate-limit.js';
import { anthropicFrontRoutes } from './anthropic-front.routes.js';
import { dashboardRoutes } from './dashboard.routes.js';
import { geminiFrontRoutes } from './gemini-front.routes.js';
import { modelListRoutes } from './models.routes.js';
import { openAIErrorHandler } from './openai-error.js';
import { proxyRoutes } from './proxy.routes.js';
import { RelayEntry, type RelayEndpoint } from './relay-entry.js';
import { busiestRoutes, relayRoutes } from './relay.routes.js';
import { responsesFrontRoutes } from './responses-front.routes.js';
import { serveResponsesWebSocket } from './responses-websocket.js';

/** Serves a request on Node's server before Fastify sees it; false leaves it to Fastify. */
export type RelayFastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * The relay under /v1 (and the legacy /dashboard billing answers): one table of routes, each answered by the
 * relay entry (request id, CORS for any origin, body, token, errors in the front's shape). Fastify only routes
 * to it; the returned fast path serves plain POSTs to the busiest routes without Fastify. No rate limit on
 * /v1, as in one-api.
 */
export async function registerRelay(
  app: FastifyInstance,
  context: AppContext,
  limits: RateLimits,
  clientAddress: (request: IncomingMessage) => string,
): Promise<RelayFastPath> {
  const runtime = relayRuntime(context);
  await runtime.router.reload();
  // Every call is priced (decision 0026): the admins' prices are read before the first one, on any node.
  await priceBook(context).load();
  const entry = new RelayEntry(context, clientAddress);
  const routes = [
    ...relayRoutes(context, runtime),
    ...proxyRoutes(context),
    ...anthropicFrontRoutes(context, runtime),
    ...responsesFrontRoutes(context, runtime),
    ...geminiFrontRoutes(context, runtime),
    ...modelListRoutes(runtime),
    ...dashboardRoutes(context, limits.api),
  ];
  await app.register(async (scope) => {
    // Only failures before the entry land here (the dashboard's rate limit).
    scope.setErrorHandler(openAIErrorHandler);
    // The entry reads the body itself, from the request as Node hands it over.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const prefix of ['/v1/*', '/v1beta/*', '/dashboard/*'])
      scope.options(prefix, (request, reply) => {
        reply.hijack();
        entry.preflight(request.raw, reply.raw, request.id);
      });
    for (const { method, path, endpoint, onRequest } of routes)
      scope.route<{ Params: Record<string, string | undefined> }>({
        method,
        url: path,
        ...(onRequest ? { onRequest } : {}),
        handler: (request, reply) => {
          reply.hijack();
          return entry.serve(request.raw, reply.raw, endpoint, request.params, request.id);
        },
      });
  });
  // Codex's built-in provider opens the Responses API's WebSocket mode first: each turn answered as the POST.
  const create = routes.find(({ method, path }) => method === 'POST' && path === '/v1/responses')!.endpoint;
  serveResponsesWebSocket(app, entry, create);
  const busiest = new Map<string, RelayEndpoint>();
  for (const { method, path, endpoint } of routes)
    if (method === 'POST' && busiestRoutes.has(path)) busiest.set(path, endpoint);
  return (request, response) => {
    const url = request.url ?? '';
    const query = url.indexOf('?');
    const endpoint = request.method === 'POST' ? busiest.get(query === -1 ? url : url.slice(0, query)) : undefined;
    if (!endpoint) return false;
    void entry.serve(request, response, endpoint, {}, newRequestId());
    return true;
  };
}
