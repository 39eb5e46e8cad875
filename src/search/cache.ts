import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';
import { RedisHealth, RedisUnavailable } from '../redis.ts';

/**
 * Repeated searches from Redis. Keys carry the index's change-feed position, so a change to the
 * register makes every older entry unreachable at once (they expire on their own); processes at
 * the same position share entries. A Redis failure only means a miss.
 */
export class SearchCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
    private readonly log: Logger,
    private readonly health = new RedisHealth(log, 1000),
  ) {}

  get enabled(): boolean {
    return this.ttlSeconds > 0;
  }

  key(seq: number, hash: string): string {
    return `${this.prefix}:search:${seq}:${hash}`;
  }

  async get<T>(key: string): Promise<T | null> {
    if (!this.enabled) return null;
    let v: string | null;
    try {
      v = await this.health.run('search cache', () => this.redis.get(key));
    } catch (err) {
      // Redis away is said once per outage (RedisHealth): a miss, and the search runs.
      if (!(err instanceof RedisUnavailable)) this.log.warn({ err }, 'search cache failed');
      return null;
    }
    return v === null ? null : (JSON.parse(v) as T);
  }

  set(key: string, value: unknown): void {
    if (!this.enabled || !this.health.available) return;
    this.health
      .run('search cache', () => this.redis.set(key, JSON.stringify(value), 'EX', this.ttlSeconds))
      .catch((err) => err instanceof RedisUnavailable || this.log.warn({ err }, 'search cache failed'));
  }
}
