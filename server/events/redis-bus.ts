import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Bus, Delivery } from './types.js';
import { loadRedis } from '../db/ioredis.js';

/**
 * Several server processes: every publication goes through Redis pub/sub and each process
 * delivers it to the queues it owns (its own publications included, so the order is one).
 */
export class RedisBus implements Bus {
  private handlers: ((d: Delivery[]) => void)[] = [];
  private readonly id = crypto.randomBytes(4).toString('hex');

  private constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly channel: string,
  ) {
    sub.on('message', (_channel: string, payload: string) => {
      let deliveries: Delivery[];
      try {
        deliveries = JSON.parse(payload).deliveries;
      } catch {
        return;
      }
      for (const h of this.handlers) h(deliveries);
    });
  }

  /** `prefix` names the channel (PARLEY_REDIS_PREFIX), so that deployments can share one Redis. */
  static async connect(url: string, prefix = 'parley:'): Promise<RedisBus> {
    // Loaded only when Redis is configured: a single process never pays for the client at start.
    const Redis = await loadRedis();
    const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = new Redis(url, { lazyConnect: true });
    await pub.connect();
    await sub.connect();
    const channel = `${prefix}events`;
    await sub.subscribe(channel);
    return new RedisBus(pub, sub, channel);
  }

  async publish(deliveries: Delivery[]) {
    await this.pub.publish(this.channel, JSON.stringify({ from: this.id, deliveries }));
  }

  subscribe(handler: (d: Delivery[]) => void) {
    this.handlers.push(handler);
  }

  async close() {
    this.handlers = [];
    this.sub.disconnect();
    this.pub.disconnect();
  }
}
