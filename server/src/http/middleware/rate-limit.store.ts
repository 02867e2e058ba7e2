import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { isRedisReady } from '../../cache/redis-connection.js';

interface WindowCount {
  /** Hits in the current window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

// One hit on a fixed window: the first hit starts the window (its expiry); answers the count and the ms left.
const hitScript = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}`;

/** Fixed windows counted in this process, at most `maxKeys` of them (expired ones go first). */
export class LocalWindows {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(private readonly maxKeys = 50_000) {}

  hit(key: string, windowMs: number): WindowCount {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (!window && this.windows.size >= this.maxKeys) this.evict(now);
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { current: window.count, ttl: window.endsAt - now };
  }

  private evict(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    if (this.windows.size < this.maxKeys) return;
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}

/**
 * Counts in Redis (shared by every node) while it answers, and in this process while it does not: limits
 * stay in force per node during an outage instead of failing every request. Counts made on one side are not
 * carried to the other; a window at most restarts once on each switch.
 */
class FallbackRateLimitStore implements FastifyRateLimitStore {
  private readonly local = new LocalWindows();
  private warned = false;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  incr(key: string, callback: (error: Error | null, result?: WindowCount) => void, timeWindow: number): void {
    const countHere = () => callback(null, this.local.hit(key, timeWindow));
    if (!isRedisReady(this.redis)) {
      countHere();
      return;
    }
    this.redis.eval(hitScript, 1, `rate-limit:${key}`, timeWindow).then(
      (result) => {
        const [current, ttl] = result as [number, number];
        this.warned = false;
        callback(null, { current, ttl });
      },
      (error: unknown) => {
        if (!this.warned) this.logger.warn({ err: error }, 'rate limits count on this node until redis answers');
        this.warned = true;
        countHere();
      },
    );
  }

  child(): FastifyRateLimitStore {
    return this;
  }
}

/** The store for @fastify/rate-limit's `store` option (it constructs the store itself). */
export function fallbackRateLimitStore(redis: Redis, logger: Logger): FastifyRateLimitStoreCtor {
  return class extends FallbackRateLimitStore {
    constructor() {
      super(redis, logger);
    }
  };
}
