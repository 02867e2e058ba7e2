import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.js';

/**
 * Cuts an /api request whose body has not all arrived `seconds` after its headers: the console's and admin
 * calls' bodies are small, so one that trickles in is holding a connection, not uploading (issue 32). The
 * answer is a 408 `{ success: false, message }` with `Connection: close`. Node's own request timeout
 * (HTTP_REQUEST_TIMEOUT) stays the bound of /v1, whose prompts may be large. Requests without a body, and
 * every other path, pass untouched.
 */
export function registerApiBodyTimeout(app: FastifyInstance, seconds: number): void {
  if (seconds <= 0) return;
  const limitMs = Math.round(seconds * 1000);
  const tooSlow = () =>
    new AppError(
      'body_too_slow',
      {
        zh: `请求体未能在 ${seconds} 秒内传完，连接已关闭`,
        en: `the request body did not arrive within ${seconds} seconds; the connection is closed`,
      },
      408,
    );
  app.addHook('preParsing', (request, reply, payload, done) => {
    const { headers } = request;
    const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
    if (!hasBody || !request.url.startsWith('/api/')) return done(null, payload);
    // The body is read through a pass-through, so that failing it leaves the socket open for the 408 (destroying
    // the request itself would close the socket first).
    const body = new PassThrough();
    const timer = setTimeout(() => {
      if (reply.sent) return;
      payload.unpipe(body);
      void reply.header('connection', 'close');
      body.destroy(tooSlow());
    }, limitMs);
    timer.unref();
    const stop = () => clearTimeout(timer);
    body.once('end', stop);
    body.once('close', stop);
    // Also when the body is left unread (refused for its size) or the client went away.
    reply.raw.once('close', stop);
    // The parser listens while it reads; after that an error has no one to tell, and must not throw.
    body.on('error', () => undefined);
    payload.once('error', (error) => body.destroy(error));
    payload.pipe(body);
    done(null, body);
  });
}

const tooManyConnections = Symbol('tooManyConnections');
type CountedSocket = Socket & { [tooManyConnections]?: true };

/**
 * Caps the connections one client address holds open at once (`max`, 0 = none), loopback included; a trusted
 * proxy's address is not counted (its connections carry many clients). A connection over the cap is
 * answered 429 at its first request, in both dialects (`success`/`message` for /api, `error` for /v1), and
 * closed: it is let in rather than reset so the client learns why.
 */
export function limitConnectionsPerAddress(
  server: Server,
  max: number,
  trusted: ((address: string) => boolean) | undefined,
): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.prependListener('connection', (socket: CountedSocket) => {
    const address = socket.remoteAddress ?? '';
    if (trusted?.(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    if (count > max) socket[tooManyConnections] = true;
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

const tooManyMessage = 'too many open connections from this address';
const tooManyBody = Buffer.from(
  JSON.stringify({
    success: false,
    message: tooManyMessage,
    error: { message: tooManyMessage, type: 'too_many_connections', param: null, code: 'too_many_connections' },
  }),
);

/** Answers a request arriving on a connection over its address's cap; false for every other request. */
export function refusedOverConnectionLimit(socket: Socket, response: ServerResponse): boolean {
  if (!(socket as CountedSocket)[tooManyConnections]) return false;
  response.writeHead(429, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': tooManyBody.length,
    connection: 'close',
  });
  response.end(tooManyBody);
  return true;
}
