import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
 * The origin of the stored chat link when it is plain http (an intranet NextChat): /chat frames it, and the
 * policy's `https:` does not cover it (issue 33 point 8). Anything else answers null: https is allowed anyway,
 * and no other scheme is ever framed.
 */
export function chatFrameOrigin(chatLink: string): string | null {
  try {
    const url = new URL(chatLink.trim());
    return url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The console's Content-Security-Policy: scripts only from this origin (plus the hashed inline script and
 * Cloudflare Turnstile), no eval; inline styles are allowed because Ant Design writes its CSS-in-JS into
 * <style> elements at run time. Frames may show https pages (Turnstile, the chat page, a home page set to
 * an address) and the configured chat link's own http origin; the console itself may not be framed. Images
 * may come from anywhere (logo, QR code, footer).
 */
export function consolePolicy(indexHtml: string, chatOrigin: string | null = null): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScriptHashes(indexHtml), 'https://challenges.cloudflare.com'].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    ["frame-src 'self' https:", ...(chatOrigin ? [chatOrigin] : [])].join(' '),
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

/** Hashed build output (vite's assets/ folder): a changed file gets a new name, so a copy never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Cache-Control of a served file; `path` may be a pre-compressed sibling (index.html.gz, app-1a2b.js.br). */
function cacheControl(assetsFolder: string, path: string): string {
  return path.startsWith(assetsFolder) ? IMMUTABLE : 'no-cache';
}

type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer with: brotli when accepted, then gzip, else none. A q of 0 refuses a coding; `*` stands
 * for any coding not named.
 */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((value) => value.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (coding: Encoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/** index.html as sent for each console route: raw, and each encoding when it is smaller. */
function indexVariants(html: Buffer): Partial<Record<Encoding, Buffer>> {
  const variants: Partial<Record<Encoding, Buffer>> = {};
  const br = brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } });
  const gzip = gzipSync(html, { level: 9 });
  if (br.length < html.length) variants.br = br;
  if (gzip.length < html.length) variants.gzip = gzip;
  return variants;
}

function sendIndex(
  request: FastifyRequest,
  reply: FastifyReply,
  html: Buffer,
  variants: Partial<Record<Encoding, Buffer>>,
) {
  reply.header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding').type('text/html; charset=utf-8');
  const encoding = pickEncoding(request.headers['accept-encoding']);
  const encoded = encoding ? variants[encoding] : undefined;
  if (encoding && encoded) return reply.header('Content-Encoding', encoding).send(encoded);
  return reply.send(html);
}

/** OpenAI's error object, which one-api answers for unknown API paths. */
const invalidUrl = (method: string, path: string) => ({
  error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: '', code: '' },
});

/**
 * Serves the built console from WEB_DIST: hashed assets cached for a year, index.html never cached, and
 * every other non-API path answered with index.html so the console's history routing works. The build writes
 * .br and .gz files next to its assets (web/vite.config.ts); they are sent to browsers that accept them.
 */
export async function registerConsole(app: FastifyInstance, context: AppContext, limits: RateLimits): Promise<void> {
  const root = context.config.WEB_DIST;
  const indexFile = join(root, 'index.html');
  // Read once: the fallback answers every console path, and the built file does not change while we run.
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile) : null;
  const policy = indexHtml ? consolePolicy(indexHtml.toString('utf8')) : '';
  // The page's policy follows the ChatLink option; rebuilt only when its origin changes.
  let pagePolicy = { chatOrigin: null as string | null, policy };
  const policyOfPage = () => {
    const chatOrigin = chatFrameOrigin(context.options.string('ChatLink'));
    if (chatOrigin !== pagePolicy.chatOrigin && indexHtml)
      pagePolicy = { chatOrigin, policy: consolePolicy(indexHtml.toString('utf8'), chatOrigin) };
    return pagePolicy.policy;
  };
  const indexEncoded = indexHtml ? indexVariants(indexHtml) : {};
  const assetsFolder = resolve(root, 'assets') + sep;
  if (indexHtml) {
    await app.register(async (scope) => {
      scope.addHook('onRequest', limits.web);
      await scope.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        preCompressed: true,
        // The compressed siblings are chosen by Accept-Encoding, not addressed by name.
        globIgnore: ['**/*.br', '**/*.gz'],
        setHeaders: (response, path) => {
          response.header('Cache-Control', cacheControl(assetsFolder, path));
          setSecurityHeaders(response, policy);
        },
      });
    });
  }

  app.setNotFoundHandler({ preHandler: limits.web }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (/^\/(v1|v1beta)(\/|$)/.test(path) || path.startsWith('/dashboard/')) {
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
    // A chunk of an earlier build (a tab open across an upgrade): the console page in its place would only fail
    // as a script with a misleading type error.
    if (path.startsWith('/assets/')) {
      return reply.status(404).header('Cache-Control', 'no-cache').type('text/plain').send('Not found');
    }
    setSecurityHeaders(reply, policyOfPage());
    return sendIndex(request, reply, indexHtml, indexEncoded);
  });
}
