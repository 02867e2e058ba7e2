import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import type { RateLimits } from './middleware/rate-limit.js';

/** The hash sources of the built index.html's inline scripts (the one that shows the stored site name). */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The console's Content-Security-Policy: scripts only from this origin (plus the hashed inline script and
 * Cloudflare Turnstile), no eval; inline styles are allowed because Ant Design writes its CSS-in-JS into
 * <style> elements at run time. Frames may show https pages (Turnstile, the chat page, a home page set to
 * an address); the console itself may not be framed. Images may come from anywhere (logo, QR code, footer).
 */
export function consolePolicy(indexHtml: string): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes(indexHtml), 'https://challenges.cloudflare.com'].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self' https:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function setSecurityHeaders(reply: FastifyReply, policy: string): void {
  reply.header('Content-Security-Policy', policy);
  reply.header('X-Frame-Options', 'DENY');
  reply.header('X-Content-Type-Options', 'nosniff');
  // Console addresses can carry secrets (the reset link's token): never send them to other sites.
  reply.header('Referrer-Policy', 'same-origin');
}

/** OpenAI's error object, which one-api answers for unknown API paths. */
const invalidUrl = (method: string, path: string) => ({
  error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: '', code: '' },
});

/**
 * Serves the built console from WEB_DIST: hashed assets cached for a week, index.html never cached, and
 * every other non-API path answered with index.html so the console's history routing works.
 */
export async function registerConsole(app: FastifyInstance, context: AppContext, limits: RateLimits): Promise<void> {
  const root = context.config.WEB_DIST;
  const indexFile = join(root, 'index.html');
  // Read once: the fallback answers every console path, and the built file does not change while we run.
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile) : null;
  const policy = indexHtml ? consolePolicy(indexHtml.toString('utf8')) : '';
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
          setSecurityHeaders(response, policy);
        },
      });
    });
  }

  app.setNotFoundHandler({ preHandler: limits.web }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/v1' || path.startsWith('/v1/') || path.startsWith('/dashboard/')) {
      return reply.status(404).send(invalidUrl(request.method, path));
    }
    if (path === '/api' || path.startsWith('/api/')) {
      return reply.status(404).send({ success: false, message: `Invalid URL (${request.method} ${path})` });
    }
    // Only a page load gets the console: a POST, PUT or DELETE to an unknown path is a client calling an API
    // that does not exist, and it is told so the way one-api's clients expect.
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send(invalidUrl(request.method, path));
    }
    if (context.config.FRONTEND_BASE_URL && !context.config.isMaster) {
      return reply.redirect(context.config.FRONTEND_BASE_URL + request.url, 301);
    }
    if (!indexHtml) {
      return reply.status(404).type('text/plain').send('Not found: the console is not built (npm run build -w web)');
    }
    setSecurityHeaders(reply, policy);
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
