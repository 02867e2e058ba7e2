import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * one-api's CORS on the relay: any origin (echoed, so credentials work), common methods, any header.
 * Preflights are answered here without authentication.
 */
export function relayCors(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.headers(corsHeaders(request.headers.origin));
  if (request.method === 'OPTIONS') {
    reply.header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS');
    reply.header('access-control-allow-headers', request.headers['access-control-request-headers'] ?? '*');
    reply.header('access-control-max-age', '43200');
    void reply.status(204).send();
    return;
  }
  done();
}

/** The CORS headers of every relay answer. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (!origin) return { 'access-control-allow-origin': '*' };
  return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
}
