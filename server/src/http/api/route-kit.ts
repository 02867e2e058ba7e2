import type { FastifyInstance, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
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
