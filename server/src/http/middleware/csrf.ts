import Tokens from '@fastify/csrf';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { readSession, updateSession } from './session.js';

const tokens = Tokens();
const readableCookie = 'XSRF-TOKEN';
const header = 'x-xsrf-token';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET that changes the account (one-api's shape: email binding, a new access token), checked as a
     * write: a cross-site link sends the session cookie on a top-level navigation, but never the header.
     */
    writesOnGet?: boolean;
  }
}

/**
 * Gives a signed-in browser its XSRF-TOKEN cookie (readable by the console; axios echoes it in
 * X-XSRF-TOKEN). The secret it is made from stays in the httpOnly session cookie.
 */
export function issueCsrfToken(request: FastifyRequest, reply: FastifyReply): void {
  let secret = readSession(request).csrfSecret;
  if (!secret) {
    secret = tokens.secretSync();
    updateSession(request, reply, { csrfSecret: secret });
  }
  reply.setCookie(readableCookie, tokens.create(secret), {
    path: '/',
    sameSite: 'strict',
    secure: request.protocol === 'https',
    httpOnly: false,
  });
}

/** Refuses a cookie-authenticated write whose X-XSRF-TOKEN does not match the session's secret. */
export function verifyCsrf(request: FastifyRequest, reply: FastifyReply): void {
  const secret = readSession(request).csrfSecret;
  if (safeMethods.has(request.method) && !request.routeOptions.config.writesOnGet) {
    if (!secret || !request.cookies[readableCookie]) issueCsrfToken(request, reply);
    return;
  }
  const token = request.headers[header];
  if (!secret || typeof token !== 'string' || !tokens.verify(secret, token)) {
    throw new AppError(
      'csrf_token_invalid',
      { zh: 'CSRF 校验失败，请刷新页面后重试', en: 'CSRF check failed: reload the page and try again' },
      403,
    );
  }
}
