import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { fallbackRateLimitStore } from './rate-limit.store.js';
import { AppError } from '../../lib/errors.js';

export interface RateLimits {
  /** Every /api call: GLOBAL_API_RATE_LIMIT per 3 minutes per IP. */
  api: onRequestAsyncHookHandler;
  /** Static files and the console: GLOBAL_WEB_RATE_LIMIT per 3 minutes per IP. */
  web: onRequestAsyncHookHandler;
  /** Sign-in, registration, mail sending, OAuth: CRITICAL_RATE_LIMIT per 20 minutes per IP. */
  critical: onRequestAsyncHookHandler;
}

const none: onRequestAsyncHookHandler = async () => {};

/**
 * Per-IP limits, kept in memory on one node and in Redis (shared by every node) when it is configured.
 * While Redis is away each node counts on its own (see FallbackRateLimitStore): limits stay in force, per
 * node, rather than every request failing or every limit lifting.
 */
export async function registerRateLimits(app: FastifyInstance, context: AppContext): Promise<RateLimits> {
  const { redis, logger } = context;
  await app.register(rateLimit, {
    global: false,
    store: redis ? fallbackRateLimitStore(redis, logger) : undefined,
    skipOnError: false,
  });
  // createRateLimit, not rateLimit: the plugin's request handlers share one "already ran" flag per request,
  // so with rateLimit() the global API limiter made every route's critical limiter a no-op.
  const limiter = (mark: string, max: number, windowMs: number): onRequestAsyncHookHandler => {
    if (max <= 0) return none;
    const check = app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: (request) => mark + request.ip });
    return async (request) => {
      const result = await check(request);
      if (result.isAllowed || !result.isExceeded) return;
      const seconds = result.ttlInSeconds;
      throw new AppError(
        'rate_limited',
        { zh: `请求过于频繁，请在 ${seconds} 秒后重试`, en: `Too many requests, try again in ${seconds} s` },
        429,
      );
    };
  };
  const { config } = context;
  return {
    api: limiter('GA', config.GLOBAL_API_RATE_LIMIT, 180_000),
    web: limiter('GW', config.GLOBAL_WEB_RATE_LIMIT, 180_000),
    critical: limiter('CT', config.CRITICAL_RATE_LIMIT, 1_200_000),
  };
}
