import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Bus, Delivery } from './types.js';

const CHANNEL = 'parley:events';

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

  static async connect(url: string): Promise<RedisBus> {
    // Loaded only when Redis is configured: a single process never pays for the client at start.
    const { Redis } = await import('ioredis');
    const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const sub = new Redis(url, { lazyConnect: true });
    await pub.connect();
    await sub.connect();
    await sub.subscribe(CHANNEL);
    return new RedisBus(pub, sub);
  }

  async publish(deliveries: Delivery[]) {
    await this.pub.publish(CHANNEL, JSON.stringify({ from: this.id, deliveries }));
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
