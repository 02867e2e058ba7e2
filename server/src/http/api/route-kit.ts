import type { FastifyInstance, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { invalidParameter } from '../../lib/errors.js';
import type { RateLimits } from '../middleware/rate-limit.js';

/** What every /api route module receives: the context, the role guards and the limits. */
export interface RouteKit {
  context: AppContext;
  requireUser: preHandlerAsyncHookHandler;
  requireAdmin: preHandlerAsyncHookHandler;
  requireRoot: preHandlerAsyncHookHandler;
  /** Critical per-IP limit (sign-in, registration, mail, OAuth). */
  criticalLimit: onRequestAsyncHookHandler;
  /** Turnstile check when TurnstileCheckEnabled. */
  turnstile: preHandlerAsyncHookHandler;
  limits: RateLimits;
}

export type RouteModule = (app: FastifyInstance, kit: RouteKit) => void | Promise<void>;

/**
 * A JSON body that must be an object: `null`, an array or a bare value is refused rather than read as `{}`
 * (which would create a row from the defaults alone).
 */
export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidParameter('the body must be a JSON object');
  return body as Record<string, unknown>;
}
