import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { RateLimits } from '../middleware/rate-limit.js';

/** The OpenAI-compatible relay under /v1 (and the legacy /dashboard billing answers). */
export async function registerRelay(_app: FastifyInstance, _context: AppContext, _limits: RateLimits): Promise<void> {}
