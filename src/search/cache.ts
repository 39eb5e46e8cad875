import type { Redis } from 'ioredis';
import type { Logger } from '../logger.ts';

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
  ) {}

  get enabled(): boolean {
    return this.ttlSeconds > 0;
  }

  key(seq: number, hash: string): string {
    return `${this.prefix}:search:${seq}:${hash}`;
  }

  async get<T>(key: string): Promise<T | null> {
    if (!this.enabled) return null;
    try {
      const v = await this.redis.get(key);
      return v === null ? null : (JSON.parse(v) as T);
    } catch (err) {
      this.log.warn({ err }, 'search cache unavailable');
      return null;
    }
  }

  set(key: string, value: unknown): void {
    if (!this.enabled) return;
    this.redis.set(key, JSON.stringify(value), 'EX', this.ttlSeconds).catch((err) => this.log.warn({ err }, 'search cache unavailable'));
  }
}
