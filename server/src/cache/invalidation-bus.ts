import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { closeRedis, isRedisReady, waitForFirstAttempt, watchRedisConnection } from './redis-connection.js';

/** What changed: a topic (`user`, `token`, `channels`, `options` …) and the key within it. */
export interface Invalidation {
  topic: string;
  key: string;
}

type Handler = (message: Invalidation) => void;

/**
 * Tells every node that a cached row changed. Handlers run at once on this node; with Redis the message
 * also reaches the other nodes through pub/sub.
 */
export interface InvalidationBus {
  /** Never rejects because the other nodes are unreachable: this node's handlers have run by then. */
  publish(topic: string, key?: string | number): Promise<void>;
  subscribe(handler: Handler): void;
  /** False while messages cannot travel between nodes (Redis away); always true for the local bus. */
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * Delivered on this node alone (key '') when it may have missed messages: `resync` drops the caches of
 * users, access tokens and tokens; `channels` and `options` reload those from the database.
 */
export const resyncTopics = ['resync', 'channels', 'options'] as const;

export class LocalBus implements InvalidationBus {
  protected readonly handlers: Handler[] = [];

  get connected(): boolean {
    return true;
  }

  async publish(topic: string, key: string | number = ''): Promise<void> {
    this.deliver({ topic, key: String(key) });
  }

  subscribe(handler: Handler): void {
    this.handlers.push(handler);
  }

  protected deliver(message: Invalidation): void {
    for (const handler of this.handlers) handler(message);
  }

  async close(): Promise<void> {}
}

/**
 * The bus over Redis pub/sub. While Redis is away, publishing runs this node's handlers and logs that the
 * other nodes were not told; the subscriber reconnects in the background. Messages published during an
 * outage are lost, so on re-subscribing after one the node resyncs (drops its caches, reloads channels and
 * options), and a node whose own publishes failed asks every node to resync as soon as it can publish again.
 */
export class RedisBus extends LocalBus {
  private readonly origin = randomUUID();
  private subscribed = false;
  /** Set when the subscription dropped (or never started): the next subscribe is followed by a resync. */
  private missedMessages = false;
  /** Set when a publish failed: the other nodes missed it and are asked to resync once Redis answers. */
  private lostPublishes = false;
  private subscribing: Promise<void> | null = null;
  private closed = false;

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channelName: string,
    private readonly logger: Logger,
  ) {
    super();
  }

  /**
   * `channelName` is used as is: ioredis does not apply its key prefix to pub/sub channels. Resolves once
   * subscribed, or at once (degraded, retrying in the background) when Redis does not answer.
   */
  static async connect(redis: Redis, channelName: string, logger: Logger): Promise<RedisBus> {
    // Subscribing again is this bus's job (after each reconnect, then a resync), not ioredis's.
    const subscriber = redis.duplicate({ autoResubscribe: false });
    watchRedisConnection(subscriber, logger, 'bus');
    const bus = new RedisBus(redis, subscriber, channelName, logger);
    subscriber.on('message', (_channel: string, raw: string) => bus.receive(raw));
    subscriber.on('ready', () => {
      bus.subscribing = bus.resubscribe();
    });
    subscriber.on('close', () => {
      if (bus.subscribed) bus.missedMessages = true;
      bus.subscribed = false;
    });
    redis.on('ready', () => void bus.announceLostPublishes());
    await waitForFirstAttempt(subscriber);
    if (bus.subscribing) await bus.subscribing;
    // Started without Redis: whatever is published until the first subscription is unknown here.
    if (!bus.subscribed) bus.missedMessages = true;
    return bus;
  }

  override get connected(): boolean {
    return this.subscribed && isRedisReady(this.publisher);
  }

  override async publish(topic: string, key: string | number = ''): Promise<void> {
    const message = { topic, key: String(key) };
    this.deliver(message);
    try {
      await this.publisher.publish(this.channelName, JSON.stringify({ ...message, origin: this.origin }));
    } catch (error) {
      if (!this.lostPublishes)
        this.logger.warn(
          { err: error, topic },
          'invalidation not sent to the other nodes (redis unreachable): every node resyncs when it returns',
        );
      this.lostPublishes = true;
    }
  }

  override async close(): Promise<void> {
    this.closed = true;
    await closeRedis(this.subscriber);
  }

  private receive(raw: string): void {
    let message: Invalidation & { origin?: string };
    try {
      message = JSON.parse(raw) as Invalidation & { origin?: string };
    } catch {
      this.logger.warn({ raw: raw.slice(0, 200) }, 'ignored a malformed invalidation message');
      return;
    }
    if (message.origin === this.origin) return;
    if (message.topic === 'resync') this.resync('another node lost invalidations');
    else this.deliver({ topic: message.topic, key: message.key });
  }

  private async resubscribe(): Promise<void> {
    if (this.closed) return;
    try {
      await this.subscriber.subscribe(this.channelName);
    } catch (error) {
      // The connection dropped again; its next `ready` tries again.
      this.logger.warn({ err: error }, 'redis bus: subscribing failed');
      return;
    }
    this.subscribed = true;
    if (this.missedMessages) {
      this.missedMessages = false;
      this.resync('redis bus reconnected');
    }
    await this.announceLostPublishes();
  }

  private async announceLostPublishes(): Promise<void> {
    if (!this.lostPublishes || this.closed || !isRedisReady(this.publisher)) return;
    this.lostPublishes = false;
    try {
      const message = { topic: 'resync', key: '', origin: this.origin };
      await this.publisher.publish(this.channelName, JSON.stringify(message));
    } catch {
      this.lostPublishes = true; // the next `ready` tries again
    }
  }

  private resync(reason: string): void {
    this.logger.info({ reason }, 'invalidations may have been missed: dropping caches, reloading channels and options');
    for (const topic of resyncTopics) this.deliver({ topic, key: '' });
  }
}
