import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/** How long start-up waits for Redis's first answer before going on without it. */
const firstConnectWaitMs = 5000;

/**
 * Options for every Redis connection of a node (the command client and the bus's subscriber).
 * - Commands fail at once while disconnected (no offline queue, no retry of a command whose connection
 *   dropped), so a request that touches Redis never hangs on it: its caller falls back to this node.
 * - A command on a connection that stopped answering (a network partition rather than a refused port)
 *   fails after `commandTimeout`.
 * - Reconnection never gives up: every 100 ms, growing to every 2 s, for as long as Redis is away.
 */
export const redisConnectionOptions = (keyPrefix: string): RedisOptions => ({
  keyPrefix,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 3000,
  commandTimeout: 2000,
  retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
});

/** True when the connection can take commands now. */
export const isRedisReady = (redis: Redis | null): boolean => redis?.status === 'ready';

/**
 * Logs a connection's outages once each (ioredis emits `error` on every failed reconnect attempt) and its
 * recoveries. Without an `error` listener ioredis prints every attempt to the console.
 */
export function watchRedisConnection(redis: Redis, logger: Logger, role: string): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error, role }, 'redis is unreachable: this node runs on its own until it returns');
  });
  redis.on('close', () => {
    if (down) return;
    down = true;
    logger.warn({ role }, 'redis connection closed: reconnecting in the background');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info({ role }, 'redis is back');
  });
}

/**
 * Connects the node's Redis client. A node whose Redis is down at start still starts (degraded, see
 * `/api/status`) instead of crash-looping: every Redis use falls back to this node, and the client keeps
 * reconnecting in the background. The wait ends at the first answer or the first failure, never later than
 * `firstConnectWaitMs`.
 */
export async function connectRedis(url: string, keyPrefix: string, logger: Logger): Promise<Redis> {
  const { Redis } = await import('ioredis'); // loaded only when configured, like the SQL drivers
  const redis = new Redis(url, redisConnectionOptions(keyPrefix));
  watchRedisConnection(redis, logger, 'commands');
  await waitForFirstAttempt(redis);
  if (!isRedisReady(redis)) logger.warn({ status: redis.status }, 'starting without redis (degraded)');
  return redis;
}

/** Resolves when the connection is ready or has failed once (it keeps retrying), or after the wait. */
export function waitForFirstAttempt(redis: Redis, timeoutMs = firstConnectWaitMs): Promise<void> {
  if (isRedisReady(redis)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      redis.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
    redis.once('error', done);
    redis.once('close', done);
  });
}

/** Closes a connection whatever its state: QUIT when it is up, else stop reconnecting. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (isRedisReady(redis)) {
    try {
      await redis.quit();
      return;
    } catch {
      // fell down while quitting
    }
  }
  redis.disconnect();
}
