import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { isRedisReady } from '../../cache/redis-connection.js';

/**
 * Session key → the channel its conversation is on (decision 0023), with a sliding time to live: a lookup
 * that finds the session extends it. Keys come from session-key.ts.
 */
export interface StickySessions {
  /** The channel recorded for the key, its life extended by `ttlSeconds`; undefined when none or expired. */
  channelOf(key: string, ttlSeconds: number): Promise<number | undefined>;
  /** Records the channel for each key; never delays or fails the call. */
  record(keys: readonly string[], channelId: number, ttlSeconds: number): void;
}

/** Sessions one node keeps at most: a few MB, and the least recently used go first. */
const maxSessions = 100_000;

/** The store of a node without Redis: a bounded map in which a lookup moves the session to the back. */
export class MemoryStickySessions implements StickySessions {
  private readonly sessions = new Map<string, { channelId: number; expiresAt: number }>();

  constructor(private readonly capacity = maxSessions) {}

  async channelOf(key: string, ttlSeconds: number): Promise<number | undefined> {
    return this.touch(key, ttlSeconds);
  }

  /** The synchronous lookup behind channelOf (the Redis store falls back to it). */
  touch(key: string, ttlSeconds: number): number | undefined {
    const session = this.sessions.get(key);
    if (!session) return undefined;
    this.sessions.delete(key);
    if (session.expiresAt <= Date.now()) return undefined;
    this.sessions.set(key, { channelId: session.channelId, expiresAt: Date.now() + ttlSeconds * 1000 });
    return session.channelId;
  }

  record(keys: readonly string[], channelId: number, ttlSeconds: number): void {
    const expiresAt = Date.now() + ttlSeconds * 1000;
    for (const key of keys) {
      if (!this.sessions.delete(key) && this.sessions.size >= this.capacity) this.evictOldest();
      this.sessions.set(key, { channelId, expiresAt });
    }
  }

  /** Drops the least recently used sixteenth at once (see local-cache.ts: one at a time is slow in V8). */
  private evictOldest(): void {
    let evictions = Math.max(1, this.capacity >> 4);
    for (const oldest of this.sessions.keys()) {
      this.sessions.delete(oldest);
      if (--evictions === 0) break;
    }
  }
}

/**
 * Sessions in Redis, shared by every node: GETEX reads and extends in one round trip, SET records. While
 * Redis does not answer, this node keeps its sessions itself (a conversation may then hop once per node).
 */
export class RedisStickySessions implements StickySessions {
  private readonly local = new MemoryStickySessions();
  private warned = false;

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  async channelOf(key: string, ttlSeconds: number): Promise<number | undefined> {
    if (!isRedisReady(this.redis)) return this.local.touch(key, ttlSeconds);
    try {
      const value = await this.redis.getex(`sticky:${key}`, 'EX', ttlSeconds);
      return value === null ? undefined : Number(value);
    } catch (error) {
      this.warnOnce(error);
      return this.local.touch(key, ttlSeconds);
    }
  }

  record(keys: readonly string[], channelId: number, ttlSeconds: number): void {
    if (!isRedisReady(this.redis)) {
      this.local.record(keys, channelId, ttlSeconds);
      return;
    }
    for (const key of keys)
      this.redis.set(`sticky:${key}`, channelId, 'EX', ttlSeconds).catch((error: unknown) => {
        this.warnOnce(error);
        this.local.record([key], channelId, ttlSeconds);
      });
  }

  private warnOnce(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.logger.warn({ err: error }, 'sticky sessions kept on this node until redis answers');
  }
}
