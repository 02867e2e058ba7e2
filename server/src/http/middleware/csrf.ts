import Tokens from '@fastify/csrf';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { readSession, updateSession } from './session.js';

const tokens = Tokens();
const readableCookie = 'XSRF-TOKEN';
const header = 'x-xsrf-token';
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

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
  if (safeMethods.has(request.method)) {
    const secret = readSession(request).csrfSecret;
    if (!secret || !request.cookies[readableCookie]) issueCsrfToken(request, reply);
    return;
  }
  requireCsrfToken(request);
}

/**
 * The check itself, for the few GET routes one-api made that change an account (email binding): a
 * cross-site link sends the session cookie on a top-level navigation, but never this header.
 */
export function requireCsrfToken(request: FastifyRequest): void {
  const secret = readSession(request).csrfSecret;
  const token = request.headers[header];
  if (!secret || typeof token !== 'string' || !tokens.verify(secret, token)) {
    throw new AppError(
      'csrf_token_invalid',
      { zh: 'CSRF 校验失败，请刷新页面后重试', en: 'CSRF check failed: reload the page and try again' },
      403,
    );
  }
}
