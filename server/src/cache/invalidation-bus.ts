import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

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
  publish(topic: string, key?: string | number): Promise<void>;
  subscribe(handler: Handler): void;
  close(): Promise<void>;
}

export class LocalBus implements InvalidationBus {
  protected readonly handlers: Handler[] = [];

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

export class RedisBus extends LocalBus {
  private readonly origin = randomUUID();

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channelName: string,
  ) {
    super();
  }

  /** `channelName` is used as is: ioredis does not apply its key prefix to pub/sub channels. */
  static async connect(redis: Redis, channelName: string): Promise<RedisBus> {
    const subscriber = redis.duplicate();
    const bus = new RedisBus(redis, subscriber, channelName);
    await subscriber.subscribe(channelName);
    subscriber.on('message', (_channel: string, raw: string) => {
      const message = JSON.parse(raw) as Invalidation & { origin: string };
      if (message.origin !== bus.origin) bus.deliver({ topic: message.topic, key: message.key });
    });
    return bus;
  }

  override async publish(topic: string, key: string | number = ''): Promise<void> {
    this.deliver({ topic, key: String(key) });
    await this.publisher.publish(this.channelName, JSON.stringify({ topic, key: String(key), origin: this.origin }));
  }

  override async close(): Promise<void> {
    await this.subscriber.quit();
  }
}
