import { createServer, type IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config/env.js';
import type { AppContext } from './context.js';
import { registerApi } from './http/api/index.js';
import { apiErrorHandler } from './http/error-handler.js';
import { registerJsonParser } from './http/json-parser.js';
import { registerMetricsRoute } from './http/metrics.routes.js';
import { registerRateLimits } from './http/middleware/rate-limit.js';
import { registerRelay, type RelayFastPath } from './http/relay/index.js';
import { limitConnectionsPerAddress, refusedOverConnectionLimit, registerApiBodyTimeout } from './http/slow-clients.js';
import { registerConsole } from './http/static.js';
import { newRequestId } from './lib/request-id.js';

/**
 * Node's limits on receiving a request, which Fastify and the relay's fast path share since they are the
 * server's: a client that sends its headers or its body too slowly gets a 408 and its socket closed (decision
 * 0015). They end once the request is received, so a long answer or stream is never cut. Node checks them
 * every `connectionsCheckingInterval`, a quarter of the headers' limit here (at most 1 s).
 */
export function httpTimeouts(config: Config) {
  const headersTimeout = Math.round(config.HTTP_HEADERS_TIMEOUT * 1000);
  return {
    headersTimeout,
    requestTimeout: Math.round(config.HTTP_REQUEST_TIMEOUT * 1000),
    keepAliveTimeout: Math.round(config.HTTP_KEEPALIVE_TIMEOUT * 1000),
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.round(headersTimeout / 4))),
  };
}

/** Builds the whole HTTP application (console, /api, /v1) without listening: tests and main.ts share it. */
export async function buildApp(context: AppContext): Promise<FastifyInstance> {
  const trustProxy = context.config.TRUSTED_PROXIES.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const requestLogging = context.config.LOG_LEVEL === 'debug' || context.config.LOG_LEVEL === 'trace';
  // The relay's client address follows the same proxy rules as Fastify's request.ip.
  const trusted = trustProxy.length > 0 ? proxyAddr.compile(trustProxy) : undefined;
  const clientAddress = (request: IncomingMessage) =>
    trusted ? proxyAddr(request, trusted) : (request.socket.remoteAddress ?? '');
  // Plain POSTs to the relay's busiest routes go to the relay entry before Fastify's per-request machinery
  // (decision 0022), unless every request is to be logged; once closing, Fastify answers everything (503).
  let fastPath: RelayFastPath | undefined;
  const app = Fastify({
    loggerInstance: context.logger as FastifyBaseLogger,
    // Per-request lines only at debug level: at relay rates they would cost more than the relay itself.
    logController: new LogController({ disableRequestLogging: !requestLogging }),
    serverFactory: (handler) => {
      const server = createServer(httpTimeouts(context.config), (request, response) => {
        if (refusedOverConnectionLimit(request.socket, response)) return;
        if (!fastPath?.(request, response)) handler(request, response);
      });
      limitConnectionsPerAddress(
        server,
        context.config.HTTP_MAX_CONNECTIONS_PER_IP,
        trusted && ((address) => trusted(address, 0)),
      );
      // No idle timeout on sockets: a non-streamed answer of a slow model leaves one silent for minutes.
      server.setTimeout(0);
      return server;
    },
    trustProxy: trustProxy.length > 0 ? trustProxy : false,
    genReqId: () => newRequestId(),
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
  });

  app.addHook('preClose', (done) => {
    fastPath = undefined;
    done();
  });
  // Callback-style hooks on every request: an async one costs a promise and a microtask hop per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Oneapi-Request-Id', request.id);
    done();
  });
  app.setErrorHandler(apiErrorHandler);
  registerJsonParser(app);
  registerApiBodyTimeout(app, context.config.HTTP_API_BODY_TIMEOUT);

  const limits = await registerRateLimits(app, context);
  await registerApi(app, context, limits);
  const relayFastPath = await registerRelay(app, context, limits, clientAddress);
  if (!requestLogging) fastPath = relayFastPath;
  await registerMetricsRoute(app, context);
  await registerConsole(app, context, limits);
  return app;
}
