import { Redis } from 'ioredis';

/**
 * Every Redis connection a process opens is made here (src/root.ts owns one), each kind one way, and
 * all of them are closed together.
 */
export class RedisConnections {
  /**
   * Commands answered within a request (rate limits, credits, caches). Connects on first use, so that
   * building the app (to print the OpenAPI document, say) connects to nothing; a command fails after
   * two retries instead of holding its request while Redis is away.
   */
  readonly commands: Redis;
  private producer: Redis | undefined;
  private readonly made = new Set<Redis>();

  constructor(private readonly url: string) {
    this.commands = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  }

  /** BullMQ's shared connection for adding jobs and publishing events; made (and connected) on first use. */
  get queues(): Redis {
    this.producer ??= this.bullmq();
    return this.producer;
  }

  /** A connection of its own, for one BullMQ consumer (a Worker or QueueEvents reads by blocking). */
  blocking(): Redis {
    return this.bullmq();
  }

  disconnect(): void {
    this.commands.disconnect();
    for (const c of this.made) c.disconnect();
  }

  private bullmq(): Redis {
    // BullMQ's commands wait for Redis to come back instead of failing (it asks for maxRetriesPerRequest null).
    const c = new Redis(this.url, { maxRetriesPerRequest: null });
    c.on('error', () => undefined); // ioredis reconnects; BullMQ reports what matters
    this.made.add(c);
    c.once('end', () => this.made.delete(c));
    return c;
  }
}
